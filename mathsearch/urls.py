from django.contrib import admin
from django.urls import path

from searchapp.web import api, views

urlpatterns = [
    path("", views.home, name="home"),
    path("questions", views.questions, name="questions"),
    path("posts", views.posts, name="posts"),
    path("post/<int:pk>", views.post, name="post"),
    path("formula/<int:pk>", views.formula, name="formula"),
    path("feedback", views.feedback, name="feedback"),
    path("healthz", views.healthz, name="healthz"),
    path("api/search", api.search, name="api-search"),
    path("api/posts", api.posts, name="api-posts"),
    path("api/formulas/<int:pk>", api.formula, name="api-formula"),
    path("api/feedback", api.feedback, name="api-feedback"),
    path("api/schema", api.schema, name="api-schema"),
    path("admin/", admin.site.urls),
]
