// Long queries on the search and question pages. A form marked data-long-query whose GET URL would be longer than
// MAX_URL_BYTES is POSTed instead (multipart, with the CSRF token; the views read either), and so is a click on a
// link of the page to such a search (the pager, the hints' "search this" links). Short queries keep GET URLs:
// shareable, bookmarkable. Without this script every query is a GET, which this site's own server reads at any
// length the box allows (5,000 characters, up to 60 KB URL-encoded); proxies and clients elsewhere often stop at 8 KB.
(function () {
  "use strict";

  const MAX_URL_BYTES = 2000;  // the longest URL every browser, proxy and log is known to keep whole
  const TOKEN = "csrfmiddlewaretoken";

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function tooLong(url) {
    return url.href.length > MAX_URL_BYTES;  // URL-encoded: one byte a character
  }

  function tokenInput(form) {
    let input = form.querySelector("input[name=" + TOKEN + "]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = TOKEN;
      form.append(input);
    }
    input.value = csrfToken();
    return input;
  }

  // Multipart, not urlencoded: a character outside ASCII then costs its 2-4 UTF-8 bytes, not 6-12, so a query and
  // its words at their 5,000 characters each stay within the 64 KB a page takes (searchapp/web/body_limits.py).
  function usePost(form, post) {
    form.method = post ? "post" : "get";
    form.enctype = post ? "multipart/form-data" : "application/x-www-form-urlencoded";
    if (post) tokenInput(form);
    else form.querySelectorAll("input[name=" + TOKEN + "]").forEach(function (input) { input.remove(); });
  }

  function getUrl(form) {
    const data = new FormData(form);
    data.delete(TOKEN);
    const url = new URL(form.action, document.baseURI);
    url.search = new URLSearchParams(data).toString();
    return url;
  }

  function postLink(url) {
    const form = document.createElement("form");
    form.hidden = true;
    url.searchParams.forEach(function (value, name) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    });
    form.action = url.pathname;
    usePost(form, true);
    document.body.append(form);
    form.submit();
  }

  function setup() {
    const forms = Array.from(document.querySelectorAll("form[data-long-query]"));
    if (!forms.length) return;
    forms.forEach(function (form) {
      // Decided at each submit: after Back, a short query goes by GET again.
      form.addEventListener("submit", function () { usePost(form, !!csrfToken() && tooLong(getUrl(form))); });
    });
    const paths = forms.map(function (form) { return new URL(form.action, document.baseURI).pathname; });
    document.addEventListener("click", function (event) {
      const link = event.target.closest && event.target.closest("a[href]");
      if (!link || event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey
          || event.altKey || link.target) return;  // a new tab or window gets the GET
      const url = new URL(link.href, document.baseURI);
      if (url.origin !== location.origin || paths.indexOf(url.pathname) < 0 || !tooLong(url) || !csrfToken()) return;
      event.preventDefault();
      postLink(url);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
