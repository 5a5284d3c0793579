from django.contrib import admin

from searchapp.models import Corpus, Post


@admin.register(Corpus)
class CorpusAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)


@admin.register(Post)
class PostAdmin(admin.ModelAdmin):
    list_display = ("title", "corpus", "source_id")
    list_filter = ("corpus",)
    search_fields = ("title", "source_id")
