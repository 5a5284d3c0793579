"""Error answers: JSON {code, message} for any /api/ path (unknown routes and wrong methods too), the site's error page
for HTML paths, never Django's plain or debug pages.

This module is also the URLconf of its tests: the site's routes and handlers, plus views that fail on purpose."""
import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import path

from mathsearch import urls

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def deny(request):
    raise PermissionDenied


def fail(request):
    raise RuntimeError("a bug")


urlpatterns = [*urls.urlpatterns, path("api/deny", deny), path("deny", deny), path("api/fail", fail), path("fail", fail)]
handler400, handler403, handler404, handler500 = urls.handler400, urls.handler403, urls.handler404, urls.handler500


@pytest.fixture
def client():
    """A client that gets the 500 answer a browser would, not the view's exception."""
    return Client(raise_request_exception=False)


def assert_json_error(response, status: int, code: str) -> dict:
    assert (response.status_code, response["Content-Type"]) == (status, "application/json")
    body = response.json()
    assert set(body) == {"code", "message"} and body["code"] == code
    return body


def assert_error_page(response, status: int, title: str) -> None:
    assert (response.status_code, response["Content-Type"]) == (status, "text/html; charset=utf-8")
    page = response.content.decode()
    assert f"<h1>{title}</h1>" in page and "MathSearch" in page and "Traceback" not in page


@pytest.mark.parametrize("method, url", [
    pytest.param("get", "/api/nothing", id="unknown-route"),
    pytest.param("post", "/api/nothing", id="post-to-unknown-route"),
    pytest.param("get", "/api/formulas/abc", id="id-not-a-number"),
    pytest.param("get", "/api/formulas/-1", id="negative-id"),
    pytest.param("get", "/api/search/", id="trailing-slash"),
])
def test_unknown_api_routes_are_json_404s(client, method, url):
    body = assert_json_error(getattr(client, method)(url), 404, "not_found")
    assert body["message"] == f"no API route {url}; /api/schema lists them"


@pytest.mark.parametrize("method, url, allowed", [
    pytest.param("put", "/api/search", "GET, POST", id="put-search"),
    pytest.param("delete", "/api/posts", "GET, POST", id="delete-posts"),
    pytest.param("put", "/api/formulas/1", "GET", id="put-formula"),
    pytest.param("get", "/api/feedback", "POST", id="get-feedback"),
    pytest.param("patch", "/api/schema", "GET", id="patch-schema"),
    pytest.param("post", "/api/docs", "GET", id="post-docs"),
])
def test_wrong_methods_are_json_405s_naming_the_allowed_one(method, url, allowed):
    response = getattr(Client(enforce_csrf_checks=True), method)(url)
    body = assert_json_error(response, 405, "method_not_allowed")
    assert response["Allow"] == allowed and body["message"].endswith(f"use {allowed}")


def test_a_failed_csrf_check_is_a_json_403_on_the_api_and_django_s_page_elsewhere():
    client = Client(enforce_csrf_checks=True)
    body = assert_json_error(client.post("/api/feedback", {"query": "x"}), 403, "csrf_failed")
    assert body["message"].startswith("CSRF verification failed")
    page = client.post("/", {"q": "x"})
    assert (page.status_code, page["Content-Type"]) == (403, "text/html; charset=utf-8")


def test_a_host_not_allowed_is_a_json_400_on_the_api_and_a_page_elsewhere(client):
    assert_json_error(client.get("/api/search", {"q": "x"}, HTTP_HOST="evil.example"), 400, "bad_request")
    assert_error_page(client.get("/", HTTP_HOST="evil.example"), 400, "Bad request")


def test_a_form_body_past_the_upload_limit_is_a_json_413(settings):
    """The CSRF middleware reads a form body before the view does, so only the handler can answer this one."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "a" * 32  # so the middleware gets as far as reading the form's token
    response = client.post("/api/feedback", {"query": "x" * 2000})
    body = assert_json_error(response, 413, "request_too_large")
    assert body["message"] == "the request body is larger than 1000 bytes"


def test_too_many_parameters_is_a_json_413(client, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    body = assert_json_error(client.get("/api/search?q=x&" + "a&" * 20), 413, "request_too_large")
    assert body["message"] == "the request has more than 10 parameters"


def test_permission_denied_is_a_json_403_on_the_api_and_a_page_elsewhere(client):
    assert_json_error(client.get("/api/deny"), 403, "forbidden")
    assert_error_page(client.get("/deny"), 403, "Forbidden")


def test_a_bug_is_a_json_500_on_the_api_and_a_page_elsewhere(client):
    body = assert_json_error(client.get("/api/fail"), 500, "server_error")
    assert "a bug" not in body["message"]  # the exception is logged, never shown
    assert_error_page(client.get("/fail"), 500, "Server error")


@pytest.mark.parametrize("url", ["/nothing", "/formula/424242", "/post/424242"])
def test_html_paths_get_the_site_s_404_page(client, url):
    assert_error_page(client.get(url), 404, "Not found")
