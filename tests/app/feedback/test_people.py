"""Who sends a signal: crawlers are told by their user agent and kept off the search URLs by robots.txt."""
import pytest

from searchapp.feedback.people import is_crawler


@pytest.mark.parametrize("agent, crawler", [
    pytest.param("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", True, id="googlebot"),
    pytest.param("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0)", True, id="bingbot"),
    pytest.param("Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", True, id="yandex"),
    pytest.param("Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", True,
                 id="baiduspider"),
    pytest.param("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1)", True, id="gptbot"),
    pytest.param("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", True, id="facebook"),
    pytest.param("Mediapartners-Google", True, id="adsense"),
    pytest.param("ia_archiver (+http://www.alexa.com/site/help/webmasters)", True, id="archiver"),
    pytest.param("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
                 False, id="chrome"),
    pytest.param("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0", False,
                 id="headless-chrome"),
    pytest.param("Mozilla/5.0 (Linux; Android 12; CUBOT X30) AppleWebKit/537.36 Chrome/110.0 Mobile", False,
                 id="a-phone-named-cubot"),
    pytest.param("python-requests/2.32.3", False, id="an-api-client"),
    pytest.param("", False, id="none"),
])
def test_crawlers_are_told_by_their_user_agent(agent, crawler):
    assert is_crawler(agent) is crawler


def test_robots_txt_keeps_crawlers_off_the_search_urls(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    disallowed = [line.split(":", 1)[1].strip() for line in response.content.decode().splitlines()
                  if line.startswith("Disallow:")]
    assert {"/?", "/questions?", "/api/", "/feedback", "/impression/"} <= set(disallowed)
    assert "/" not in disallowed  # the home page, formula and post pages stay open
