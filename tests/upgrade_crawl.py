"""Crawl every page a demo user can reach by links, on the database the environment names.

    python tests/upgrade_crawl.py USERNAME [USERNAME ...]

Run by ``tests/test_upgrade_from_release.py`` in a process of its own (the settings come from the
environment, not the test settings). For each user, signed in with the test client: start at ``/``,
follow every same-site link (``href="/..."``) of every HTML page breadth first, GET each once, and
record its status. Prints one JSON document on stdout: ``{username: {"pages": n, "failures":
[[url, status, referrer], ...]}}``.
"""
from __future__ import annotations

import json
import sys
from collections import deque
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: Links not followed: they sign out, are served by whitenoise or the admin (which lets no demo
#: user in), or answer with a file rather than a page.
SKIPPED_PREFIXES = ("/accounts/logout", "/static/", "/media/", "/admin/", "/api/schema/")
MOST_PAGES = 400


class LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.links += [value for name, value in attrs if name == "href" and value]


def same_site_links(html: str) -> list[str]:
    parser = LinkParser()
    parser.feed(html)
    links = []
    for href in parser.links:
        url = urldefrag(href)[0]
        local = url.startswith("/") and not url.startswith("//") and not urlsplit(url).netloc
        if local and not url.startswith(SKIPPED_PREFIXES):
            links.append(url)
    return links


def crawl(client, start: str = "/") -> tuple[int, list[list]]:
    seen, queue, failures = {start}, deque([(start, "")]), []
    while queue and len(seen) <= MOST_PAGES:
        url, referrer = queue.popleft()
        response = client.get(url, follow=True)
        if response.status_code >= 400:
            failures.append([url, response.status_code, referrer])
            continue
        if "text/html" not in response.get("Content-Type", ""):
            continue
        for link in same_site_links(response.content.decode("utf-8", errors="replace")):
            if link not in seen:
                seen.add(link)
                queue.append((link, url))
    return len(seen), failures


def main(usernames: list[str]) -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    results = {}
    for username in usernames:
        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        pages, failures = crawl(client)
        results[username] = {"pages": pages, "failures": failures}
    return results


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
