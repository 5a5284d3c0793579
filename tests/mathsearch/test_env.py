import os
from urllib.parse import urlsplit

import pytest
from django.core.exceptions import ImproperlyConfigured

from mathsearch.env import cache_url, database_config, env_bool, env_float, env_int, redis_url


@pytest.mark.parametrize("url, expected", [
    pytest.param("postgres://u:p%40ss@db.example:6543/search",
                 {"NAME": "search", "USER": "u", "PASSWORD": "p@ss", "HOST": "db.example", "PORT": "6543"},
                 id="tcp-with-password"),
    pytest.param("postgresql://postgres:@/mathsearch?host=/var/run/pg",
                 {"NAME": "mathsearch", "USER": "postgres", "PASSWORD": "", "HOST": "/var/run/pg", "PORT": ""},
                 id="unix-socket"),
    pytest.param("postgresql://db/x", {"NAME": "x", "USER": "", "HOST": "db", "PORT": ""}, id="host-only"),
    pytest.param("postgresql://postgres:@/x?host=var/pgdata", {"NAME": "x", "HOST": os.path.abspath("var/pgdata")},
                 id="relative-socket-directory-made-absolute"),
    pytest.param("postgresql://postgres:@/x?host=/srv/replica&port=5433", {"HOST": "/srv/replica", "PORT": "5433"},
                 id="socket-port-in-the-query-as-libpq-reads-it"),
])
def test_database_config_parses(url, expected):
    config = database_config(url)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert {key: config[key] for key in expected} == expected


@pytest.mark.parametrize("url, message", [
    pytest.param("mysql://u@h/db", "must start with postgres", id="wrong-scheme"),
    pytest.param("postgres://u@h:notaport/db", "invalid port", id="bad-port"),
    pytest.param("postgres://u@/db?host=/s&port=70000", "invalid port", id="bad-query-port"),
    pytest.param("postgres://u@h/", "names no database", id="no-database"),
    pytest.param("not a url", "must start with postgres", id="garbage"),
])
def test_database_config_rejects_malformed(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        database_config(url)


def test_database_config_error_hides_password():
    with pytest.raises(ImproperlyConfigured) as raised:
        database_config("mysql://user:secret@h/db")
    assert "secret" not in str(raised.value)


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://:pw@cache:6380/2", "redis://h"])
def test_redis_url_accepts(url):
    assert redis_url(url) == url


@pytest.mark.parametrize("url, message", [
    pytest.param("http://h:6379", "must start with redis", id="wrong-scheme"),
    pytest.param("redis://h:99999999/0", "invalid port", id="bad-port"),
    pytest.param("redis:///0", "names no host", id="no-host"),
    pytest.param("redis://h/zero", "must be a number", id="bad-db"),
])
def test_redis_url_rejects_malformed(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        redis_url(url)


@pytest.mark.parametrize("broker, cache", [
    ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/1"),
    ("rediss://:pw@cache:6380/2", "rediss://:pw@cache:6380/3"),
    ("redis://h", "redis://h/1"),
])
def test_cache_uses_the_next_database_of_the_broker(broker, cache):
    assert cache_url(broker) == cache


def test_the_tests_queue_and_cache_on_databases_of_their_own_beside_the_sites(settings):
    """A site served from this checkout shares the embedded broker server; its worker must not take tests' tasks."""
    from mathsearch import settings as site

    site_uses = {site.CELERY_BROKER_URL, site.CACHES["default"]["LOCATION"]}
    tests_use = {settings.CELERY_BROKER_URL, settings.CELERY_RESULT_BACKEND, settings.CACHES["default"]["LOCATION"]}
    assert len(tests_use) == 2 and site_uses.isdisjoint(tests_use)
    assert {urlsplit(url).netloc for url in site_uses | tests_use} == {urlsplit(site.REDIS_URL).netloc}


def test_env_helpers_read_present_absent_and_malformed(monkeypatch):
    monkeypatch.delenv("MS_FLAG", raising=False)
    assert env_bool("MS_FLAG", True) is True
    monkeypatch.setenv("MS_FLAG", "yes")
    assert env_bool("MS_FLAG") is True
    monkeypatch.setenv("MS_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="MS_FLAG"):
        env_bool("MS_FLAG")
    monkeypatch.setenv("MS_NUM", "12")
    assert env_int("MS_NUM", 1) == 12
    monkeypatch.setenv("MS_NUM", "twelve")
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        env_int("MS_NUM", 1)
    monkeypatch.setenv("MS_NUM", "0.5")
    assert env_float("MS_NUM", 1.0) == 0.5
    for malformed in ("half", "nan", "inf"):
        monkeypatch.setenv("MS_NUM", malformed)
        with pytest.raises(ImproperlyConfigured, match="MS_NUM"):
            env_float("MS_NUM", 1.0)
    monkeypatch.setenv("MS_NUM", "a quarter")
    with pytest.raises(ImproperlyConfigured, match="MS_NUM='a quarter' is not a number"):
        env_float("MS_NUM", 1.0)


def test_a_bad_replica_url_is_named_as_such():
    with pytest.raises(ImproperlyConfigured, match="DATABASE_REPLICA_URL names no database"):
        database_config("postgres://u@h/", "DATABASE_REPLICA_URL")
