"""Thin page views: validate, call the domain, render."""
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from searchapp.errors import ApiError
from searchapp.feedback.actions import UNJUDGE, parse_feedback, record_feedback
from searchapp.feedback.impressions import record_looks
from searchapp.feedback.people import Person, client_address
from searchapp.health import health_report
from searchapp.live.serving import served_search
from searchapp.models import Formula, IndexJob, Post
from searchapp.search.context import CONTEXT_WEIGHT
from searchapp.search.feedback_boost import REACH
from searchapp.search.question_search import answers_with_formulas
from searchapp.search.questions import DEFAULT_MODE
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS
from searchapp.web import one_box, search_page
from searchapp.web.params import int_param, question_params, search_params, tag_param
from searchapp.web.presenters import formula_detail, post_formulas
from searchapp.web.reading_limits import reading_limits
from searchapp.web.snippets import text_part
from searchapp.web.trees_svg import tree_svg


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Status and the names of parts that are down for everyone; the details (errors, versions) for staff only."""
    report = health_report()
    shown = report if request.user.is_staff else {"status": report["status"], "down": report["down"]}
    return JsonResponse(shown, status=200 if report["status"] == "ok" else 503)


def search_form(request: HttpRequest) -> QueryDict:
    """The search a page was asked for: its query string, or its POSTed form (static/js/long_query.js posts a query
    whose URL would be longer than proxies pass on), without the CSRF token, which its pager links must not carry."""
    if request.method != "POST":
        return request.GET
    form = request.POST.copy()
    form.pop("csrfmiddlewaretoken", None)
    return form


@require_http_methods(["GET", "POST"])
@ensure_csrf_cookie  # the page's feedback requests, and a long query's POST, send this token back
def home(request: HttpRequest) -> HttpResponse:
    """The search page; with `?q=` (or a POSTed form) it also renders the results, so searching works without
    JavaScript. A formula lists formulas; words, with or without `$…$` formulas, list answers and the formulas like
    each of the question's (`one_box`); `as=formula` reads the box as one formula whatever it holds."""
    form = search_form(request)
    query = form.get("q", "").strip()
    as_question = form.get("as") != "formula" and one_box.reads_as_question(query, form.get("notation") or "auto")
    context = search_page.search_context(form, request, as_question)
    status = 200
    if query:
        try:
            person = Person.of(request, lasting=not as_question)
            found = _ask_with_formulas(form) if as_question else _search(form, person)
            context.update(search_page.with_judgments(found, person, query))
        except ApiError as error:
            context["error"], status = search_page.error_context(error.message, error.pos, query), error.status
    return render(request, "searchapp/search.html", context, status=status)


def _page(form: QueryDict) -> int:
    return int_param(form, "page", 1, 1, search_page.MAX_PAGES)


def _search(form: QueryDict, person: Person) -> dict:
    """The box's formula, served as one page of results (read, searched, logged) and presented."""
    params, page = search_params(form, default_notation="auto"), _page(form)
    served = served_search(params.pop("text"), person, **{**params, **search_page.page_window(page)})
    return search_page.formula_results(served, page, form)


@require_GET
def help_page(request: HttpRequest) -> HttpResponse:
    """What the pages' terms mean: the two representations, the orders of formula search, query variables, the
    notations, the question-search modes and people's feedback, and what an upload of one's own documents may hold,
    each from the constants the search and the reader themselves use."""
    return render(request, "searchapp/help.html", {
        "representations": search_page.REPRESENTATIONS,
        "fusions": [(name, search_page.FUSION_HELP[name]) for name in ORDERS], "default_fusion": DEFAULT_ORDER,
        "notations": [(value, name, search_page.NOTATION_HELP[value]) for value, name in search_page.NOTATION_CHOICES],
        "modes": [(mode, search_page.MODE_NAMES[mode], search_page.MODE_HELP[mode]) for mode in search_page.MODES],
        "default_mode": DEFAULT_MODE, "context_weight": CONTEXT_WEIGHT, "feedback_reach": REACH,
        "formats": IndexJob.formats(), "reading_limits": reading_limits(settings.MATHSEARCH_MAX_UPLOAD_BYTES),
    })


@require_http_methods(["GET", "POST"])
@ensure_csrf_cookie  # a long question's POST sends this token back
def questions(request: HttpRequest) -> HttpResponse:
    """The Answers tab: answers to a question written as text with `$…$` formulas; a GET form, so no JavaScript
    is needed (a long question is POSTed, as on the search page). A submitted empty question is an error, unlike the
    bare tab."""
    form = search_form(request)
    context = search_page.answers_tab_context(form, request)
    status = 200
    if "q" in form:
        try:
            context.update(search_page.with_judgments(_ask(form), Person.of(request), context["query"]))
        except ApiError as error:
            message = search_page.EMPTY_QUESTION if error.code == "missing_query" else error.message
            context["error"], status = search_page.error_context(message, error.pos, context["query"]), error.status
    return render(request, "searchapp/questions.html", context, status=status)


def _ask(form: QueryDict) -> dict:
    """The Answers tab's question, searched for one page of answers and presented."""
    params, page = question_params(form), _page(form)
    results = Post.objects.tagged(params["tag"]).search(params["question"], mode=params["mode"], corpus=params["corpus"],
                                                        **search_page.page_window(page))
    return search_page.answer_results(results, params, page, form)


def _ask_with_formulas(form: QueryDict) -> dict:
    """The search box's question: its answers, and the formula hits of each of its formulas."""
    params, page = question_params(form), _page(form)
    results, beside = answers_with_formulas(Post.objects.tagged(params["tag"]), params["question"], mode=params["mode"],
                                            corpus=params["corpus"], **search_page.page_window(page))
    return search_page.one_box_answers(results, beside, params, page, form)


@require_GET
def formula(request: HttpRequest, pk: int) -> HttpResponse:
    """One formula: the posts it occurs in, its SLT and OPT, and its nearest neighbours."""
    found = get_object_or_404(Formula.objects.select_related("corpus"), pk=pk)
    detail = formula_detail(found)
    svgs = {name: tree_svg(tree, title=f"{found.latex[:80]} as {name.upper()}")
            for name, tree in detail.trees.items() if tree is not None}
    return render(request, "searchapp/formula.html", {
        "formula": found, "svgs": svgs, "opt_error": found.opt_error, "occurrences": detail.snippets,
        "occurrence_count": detail.occurrence_count, "elsewhere": detail.elsewhere,
        "nearest": Formula.objects.nearest_to(found),
        **_back_to_results(request),
    })


def _back_to_results(request: HttpRequest) -> dict:
    """The results page a formula or post page was opened from (`?back=`, see `search_page.back_param`): its
    address for "Back to results", its query, and `back` to pass on to the page's own links. An older link's
    `?q=` alone goes back to that query's first page."""
    link = search_page.results_link(request.GET.get("back", ""))
    if not link and (query := request.GET.get("q", "").strip()):
        link = f"{reverse('home')}?{urlencode({'q': query})}"
    return {"results_link": link, "results_query": search_page.results_query(link) if link else "",
            "back": urlencode({"back": link}) if link else ""}


@require_POST
def feedback(request: HttpRequest) -> HttpResponse:
    """The no-JavaScript path of the relevant / not relevant buttons: record, then go back to the results."""
    try:
        address = client_address(request)
        signal = parse_feedback(request.POST)
        record_feedback(signal, Person.of(request), address)
        messages.success(request, "Your judgment was taken back." if signal.kind == UNJUDGE
                         else "Thanks, your judgment was recorded.")
    except ApiError as error:
        messages.error(request, error.message)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = "/"
    return redirect(target)


PIXEL = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,"
         b"\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
"""A transparent 1×1 GIF."""


@require_GET
def seen_pixel(request: HttpRequest, pk: int) -> HttpResponse:
    """The `<noscript>` image of a results page: a browser that runs no JavaScript loads it, and the first results
    of its page count as seen (`record_looks`). A fetch without the page's session cookie (a crawler following the
    address) counts nothing; the image is the answer whatever was counted, since a page cannot show an error here."""
    if request.session.session_key or request.user.is_authenticated:
        try:
            record_looks(pk, Person.of(request), client_address(request))
        except ApiError:  # someone else's page, or past the rate limit: not counted
            pass
    return HttpResponse(PIXEL, content_type="image/gif", headers={"Cache-Control": "no-store"})


@require_GET
def posts(request: HttpRequest) -> HttpResponse:
    """Every post, 50 a page; `?tag=` keeps a tag's threads (`Post.objects.tagged`)."""
    try:
        tag = tag_param(request.GET)
    except ApiError as error:
        return render(request, "error.html", {"title": "Bad request", "message": error.message}, status=error.status)
    listing = Post.objects.tagged(tag).select_related("corpus", "parent").order_by("id")
    page = Paginator(listing, 50).get_page(request.GET.get("page"))
    return render(request, "searchapp/posts.html", {"page": page, "tag": tag,
                                                    "tag_param": urlencode({"tag": tag}) if tag else ""})


@require_GET
def post(request: HttpRequest, pk: int) -> HttpResponse:
    """One post: its text (the browser renders its math), a long one a part at a time (`?part=2`), its answers or its
    question, and its formulas."""
    found = get_object_or_404(Post.objects.for_page(), pk=pk)
    number = request.GET.get("part", "1")
    anchors = {(o.start, o.end): o.page_anchor for o in found.occurrences.all() if o.end}
    # ASCII digits only, and few: `int("²")` raises, and a 5,000-digit part is no part of any post
    part = text_part(found.body, int(number), list(anchors)) if number.isascii() and number.isdigit() and len(
        number) <= 6 else None
    if part is None:
        raise Http404("this post's text has no such part")
    numbers = {o.page_anchor: o.number for o in found.occurrences.all() if o.end and o.number}
    return render(request, "searchapp/post.html", {"post": found, "part": part,
                                                   "paragraphs": part.paragraphs(anchors, numbers),
                                                   "elsewhere": Post.objects.copies_of(found),
                                                   "formulas": post_formulas(found),
                                                   "related": Post.objects.related_to(found),
                                                   **_back_to_results(request)})


@require_GET
def post_text(request: HttpRequest, pk: int) -> HttpResponse:
    """A post's whole text as plain text, for a text longer than a page shows."""
    found = get_object_or_404(Post.objects.only("body"), pk=pk)
    return HttpResponse(found.body, content_type="text/plain; charset=utf-8")
