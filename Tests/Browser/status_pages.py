#!/usr/bin/env python3
"""Looks at published status pages as a person would, in headless Chromium.

    status_pages.py DIR EXPECTED.json SHOTS

DIR is a tree `relctl publish` wrote; EXPECTED.json lists, for every recorded
version, what `relctl check --json` said at the publish time:
[{"project", "platform", "version", "build", "verdict"}]. SHOTS receives
screenshots at phone and desktop width, light and dark. Exits 1 with one line
per problem. Run by StatusPageBrowserTests (make check).
"""
import http.server
import json
import os
import re
import sys
import threading

import html5lib
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

root, expected_path, shots = sys.argv[1], sys.argv[2], sys.argv[3]
expected = json.load(open(expected_path))
os.makedirs(shots, exist_ok=True)
problems = []


def problem(text):
    problems.append(text)
    print("problem: " + text, file=sys.stderr)


# 1. Strict HTML: every page parses with no error, and the only script
#    element is relctl's own (hostile names, notes and messages stay text).
pages = ["index.html"] + sorted({e["project"] + "/status.html" for e in expected})
for page in pages:
    data = open(os.path.join(root, page), "rb").read()
    try:
        html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(data)
    except Exception as e:  # html5lib raises ParseError on the first error
        problem(f"{page}: not strict HTML: {e}")
    tree = html5lib.parse(data, namespaceHTMLElements=False)
    scripts = tree.findall(".//script")
    if len(scripts) != 1 or not (scripts[0].text or "").startswith("(function(){"):
        problem(f"{page}: {len(scripts)} script elements; only relctl's own may be there")
    for tag in ("img", "iframe", "object", "embed", "link", "a"):
        for el in tree.iter(tag):
            for attr in ("src", "href", "data"):
                v = el.get(attr)
                if v and (v.startswith("http") or v.startswith("//")) and tag != "a":
                    problem(f"{page}: <{tag} {attr}={v}> would fetch from outside")
    if b"<script>alert" in data:
        problem(f"{page}: a hostile <script> reached the page as markup")


# 2. A server that records every request, so a request the page makes is seen.
requests = []


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=root, **k)

    def log_message(self, *a):
        requests.append(self.path)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}/"


def browser(javascript):
    o = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-default-apps", "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1"):
        o.add_argument(arg)
    o.binary_location = "/usr/bin/chromium"
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not javascript:
        o.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(options=o, service=Service("/usr/bin/chromedriver"))


def load(driver, page):
    del requests[:]
    driver.get(base + page)
    driver.execute_script("return document.readyState")
    extra = [r for r in requests if r != "/" + page]
    if extra:
        problem(f"{page}: the page made requests: {extra}")
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    if resources:
        problem(f"{page}: resource entries: {resources}")


def verdicts(driver):
    seen = {}
    for section in driver.find_elements(By.CSS_SELECTOR, "section.platform"):
        platform = section.get_attribute("data-platform")
        for row in section.find_elements(By.CSS_SELECTOR, "tr[data-version]"):
            key = (platform, row.get_attribute("data-version"), row.get_attribute("data-build"))
            cell = row.find_elements(By.CSS_SELECTOR, "td")[2]
            word = cell.find_element(By.CSS_SELECTOR, ".v").text.strip()
            # The version users are sent to: the first "→ X" (later lines are older OS bands').
            first = cell.text.split("\n")[0]
            target = first.split("→ ")[1].strip() if "→ " in first else None
            seen[key] = (row.get_attribute("data-verdict"), word, target)
    return seen


def compare(page, project, seen):
    want = {(e["platform"], e["version"], "" if e["build"] is None else str(e["build"])): (e["verdict"], e["target"])
            for e in expected if e["project"] == project}
    for key, (verdict, target) in want.items():
        if key not in seen:
            problem(f"{page}: {key} is not on the page")
        elif seen[key] != (verdict, verdict, target):
            problem(f"{page}: {key}: the page says {seen[key]}, check says {verdict} to {target}")
    for key in seen.keys() - want.keys():
        problem(f"{page}: {key} is on the page but check was not asked")


def read_as_person(driver, page):
    """What a support person reads: filled texts, people's times, every window visible."""
    text = driver.find_element(By.TAG_NAME, "body").text
    for pattern, what in ((r"\{[a-z_]+\}", "an unfilled placeholder"), (r"\d{4}-\d\d-\d\dT\d\d:", "a raw RFC 3339 instant")):
        m = re.search(pattern, text)
        if m:
            problem(f"{page}: {what} in the text: ...{text[max(m.start() - 60, 0):m.end() + 20]}...")
    if page == "index.html":
        return
    # The reader (TZ below) is not in the project's zone: each time says the reader's own.
    times = driver.find_elements(By.CSS_SELECTOR, "time[datetime]")
    mine = driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    zone = driver.find_element(By.TAG_NAME, "footer").text
    if times and mine not in zone and not any("your time" in t.find_element(By.XPATH, "following-sibling::span[1]").text for t in times):
        problem(f"{page}: a reader in {mine} is not given their own time ({zone})")
    nxt = driver.find_element(By.ID, "next").text
    if "polling" in nxt:
        problem(f"{page}: Next change names machinery: {nxt}")
    for bar in driver.find_elements(By.CSS_SELECTOR, "svg rect[class^='w-']"):
        if bar.get_attribute("class") == "w-cancelled":
            continue
        if bar.rect["width"] < 5:
            problem(f"{page}: a maintenance bar is {bar.rect['width']:.1f} px wide: {bar.get_attribute('innerHTML')}")
    labels = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "svg text.wl")]
    for li in driver.find_elements(By.CSS_SELECTOR, "ul.events li"):
        m = re.search(r"maintenance window #(\d+)", li.text)
        if m and li.get_attribute("data-state") != "cancelled" and "#" + m.group(1) not in labels:
            problem(f"{page}: window #{m.group(1)} has no label on the timeline ({labels})")


def title_has_no_override(driver, page):
    # A title is laid out by code that may not know isolates: an override left open would reverse the rest.
    if any(c in driver.title for c in "\u202a\u202b\u202c\u202d\u202e"):
        problem(f"{page}: the title holds a direction override: {driver.title!r}")


def screenshot(driver, name, width):
    driver.set_window_size(width, 900)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(height + 100, 8000))
    if driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1"):
        problem(f"{name}: wider than the window at {width}px (the page scrolls sideways)")
    driver.save_screenshot(os.path.join(shots, name + ".png"))


# 3. With JavaScript: no console message, the script ran (local times shown).
driver = browser(javascript=True)
try:
    for page in pages:
        load(driver, page)
        errors = [l for l in driver.get_log("browser") if l["level"] in ("SEVERE", "WARNING")]
        if errors:
            problem(f"{page}: console: {errors}")
        if not driver.find_elements(By.CSS_SELECTOR, "span.local"):
            problem(f"{page}: the script added no local time")
        read_as_person(driver, page)
        title_has_no_override(driver, page)
        if page != "index.html":
            compare(page, page.split("/")[0], verdicts(driver))
        name = page.replace("/", "-").replace(".html", "")
        screenshot(driver, f"{name}-desktop", 1280)
        screenshot(driver, f"{name}-phone", 390)
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        screenshot(driver, f"{name}-phone-dark", 390)
        screenshot(driver, f"{name}-desktop-dark", 1280)
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
finally:
    driver.quit()

# 4. Without JavaScript: the same verdicts, readable, nothing added by script.
driver = browser(javascript=False)
try:
    for page in pages:
        load(driver, page)
        if driver.find_elements(By.CSS_SELECTOR, "span.local"):
            problem(f"{page}: the script ran although JavaScript is off")
        if not driver.find_element(By.TAG_NAME, "h1").text.strip():
            problem(f"{page}: no heading without JavaScript")
        if page != "index.html":
            compare(page + " (no JavaScript)", page.split("/")[0], verdicts(driver))
        else:
            for e in expected:
                if not driver.find_elements(By.CSS_SELECTOR, f'section[data-project="{e["project"]}"]'):
                    problem(f"index.html: project {e['project']} is missing")
        name = page.replace("/", "-").replace(".html", "")
        screenshot(driver, f"{name}-phone-nojs", 390)
finally:
    driver.quit()
server.shutdown()

print(f"{len(pages)} pages, {len(expected)} verdicts compared, screenshots in {shots}")
sys.exit(1 if problems else 0)
