"""Locust's clients against a live site (`manage.py loadtest` runs them): every request counted, timed and named."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from searchapp.management.commands.loadtest import summary


@pytest.mark.django_db(transaction=True)
def test_a_few_seconds_of_load_on_a_live_site_all_succeed_and_add_up(index_file, live_server):
    index_file()
    out = StringIO()
    call_command("loadtest", "--url", live_server.url, "--clients", "3", "--seconds", "4", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["requests"] > 0 and report["success_rate"] == 1.0
    assert report["status_codes"] == {"200": report["requests"]} and report["successes"] == report["requests"]
    by_name = {name: entry["requests"] for name, entry in report["by_name"].items()}
    assert sum(by_name.values()) == report["requests"] and by_name["/api/search"] > report["requests"] / 2
    assert set(by_name) <= {"/api/search", "/api/posts", "/", "/formula/[id]"}
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] and report["requests_per_s"] > 0
    assert "successes     " in summary(report)
