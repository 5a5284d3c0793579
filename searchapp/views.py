"""Thin views: validate, call a service, render or return JSON."""
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from searchapp.health import health_report
from searchapp.models import Post


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    posts = Post.objects.select_related("corpus").order_by("id")
    page = Paginator(posts, 50).get_page(request.GET.get("page"))
    return render(request, "searchapp/home.html", {"page": page})
