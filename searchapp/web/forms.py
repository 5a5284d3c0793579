"""Forms of the staff pages."""
from django import forms
from django.conf import settings

from searchapp.models import IndexJob


class UploadForm(forms.Form):
    file = forms.FileField(help_text="Streamed to disk; indexing runs in the background. A folder (thread pages, a "
                                     "LaTeX project, notes) comes as a .zip; an arXiv paper's source as its .tar.gz "
                                     "or .gz.")
    format = forms.ChoiceField(choices=IndexJob.Format.choices)
    corpus = forms.SlugField(max_length=100, help_text="An existing corpus name adds to it; a new one creates it.")

    def clean_file(self):
        uploaded = self.cleaned_data["file"]
        limit = settings.MATHSEARCH_MAX_UPLOAD_BYTES
        if uploaded.size > limit:
            raise forms.ValidationError(f"The file has {uploaded.size:,} bytes; the limit is {limit:,}.")
        return uploaded
