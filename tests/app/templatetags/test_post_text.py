from django.template import Context, Template


def test_the_snippet_filter_cuts_post_text_between_words_and_leaves_it_to_auto_escaping():
    body = "<b>bold</b> " + "word " * 400
    rendered = Template("{% load post_text %}{{ body|snippet:40 }}").render(Context({"body": body}))
    assert rendered.startswith("&lt;b&gt;bold&lt;/b&gt; word") and rendered.endswith("word…")
    assert len(rendered.replace("&lt;", "<").replace("&gt;", ">")) <= 40
