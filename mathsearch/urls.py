from django.contrib import admin
from django.urls import path
from django.views.generic import TemplateView

from searchapp.web import api, error_views, views

# JSON {code, message} under /api/, the site's error page elsewhere (Django's debug pages only with DEBUG on).
handler400 = error_views.bad_request
handler403 = error_views.permission_denied
handler404 = error_views.page_not_found
handler500 = error_views.server_error

urlpatterns = [
    path("", views.home, name="home"),
    path("questions", views.questions, name="questions"),
    path("posts", views.posts, name="posts"),
    path("help", views.help_page, name="help"),
    path("post/<int:pk>", views.post, name="post"),
    path("post/<int:pk>/text", views.post_text, name="post-text"),
    path("formula/<int:pk>", views.formula, name="formula"),
    path("feedback", views.feedback, name="feedback"),
    path("impression/<int:pk>/seen.gif", views.seen_pixel, name="seen-pixel"),
    path("robots.txt", TemplateView.as_view(template_name="robots.txt", content_type="text/plain")),
    path("healthz", views.healthz, name="healthz"),
    path("api/search", api.search, name="api-search"),
    path("api/posts", api.posts, name="api-posts"),
    path("api/formulas/<int:pk>", api.formula, name="api-formula"),
    path("api/posts/<int:pk>", api.post, name="api-post"),
    path("api/feedback", api.feedback, name="api-feedback"),
    path("api/looks", api.looks, name="api-looks"),
    path("api/latex", api.latex, name="api-latex"),
    path("api/schema", api.schema, name="api-schema"),
    path("api/docs", api.docs, name="api-docs"),
    path("admin/", admin.site.urls),
]
