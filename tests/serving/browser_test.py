"""
The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`) driven by
selenium parses a question, teaches a new predicate, waits for the new version and parses again.
Skipped when Chromium or its driver is missing, unless `FEWSHOT_BROWSER_TEST=required` (CI sets it
after installing them). `FEWSHOT_SCREENSHOT_DIR` keeps the screenshots.
"""
import os
import shutil

import pytest

from tests.serving.conftest import Server

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser():
    """The Chromium binary and its driver, or a skip (a failure when the browser test is required)."""
    binary = next((shutil.which(name) for name in BROWSERS if shutil.which(name)), None)
    driver = shutil.which("chromedriver") or next(
        (path for path in ("/usr/lib/chromium/chromedriver",) if os.path.isfile(path)), None)
    try:
        import selenium  # noqa: F401
    except ImportError:
        binary = None
    if binary is None or driver is None:
        message = "no headless Chromium with chromedriver and selenium (apt-get install chromium chromium-driver)"
        if os.environ.get("FEWSHOT_BROWSER_TEST") == "required":
            pytest.fail(message)
        pytest.skip(message)
    return binary, driver


@pytest.fixture
def chrome():
    binary, driver_path = browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1200,1000", "--no-proxy-server"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def screenshot(driver, tmp_path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    driver.save_screenshot(str(path))
    keep = os.environ.get("FEWSHOT_SCREENSHOT_DIR")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copyfile(path, os.path.join(keep, f"{name}.png"))


def test_the_page_parses_teaches_a_new_predicate_and_parses_with_the_new_version(chrome, archive, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as shown
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # The page re-renders its versions table and status lines while it polls: an element found a moment
    # ago may be replaced before it is read, so the waits look again instead of failing.
    stale = [StaleElementReferenceException]

    server = Server(archive, str(tmp_path / "state"), str(tmp_path / "server.log"))
    try:
        server.wait()
        chrome.get(server.base + "/")
        wait = WebDriverWait(chrome, 30, ignored_exceptions=stale)
        wait.until(shown.text_to_be_present_in_element((By.ID, "health"), "version 0 answering"))

        def ask(question: str) -> None:
            box = chrome.find_element(By.ID, "utterance")
            box.clear()
            box.send_keys(question)
            chrome.find_element(By.ID, "parse").click()

        ask("how big be s0")
        wait.until(shown.text_to_be_present_in_element((By.ID, "version"), "version 0"))
        assert chrome.find_element(By.ID, "answered-by").text == "pre-trained"
        assert chrome.find_element(By.ID, "lf-text").text.startswith("(")
        assert chrome.find_elements(By.CSS_SELECTOR, "#tree .node")

        # Correct the answer: the form is filled with the question and its LF; write the new predicate's LF.
        chrome.find_element(By.ID, "correct").click()
        assert chrome.find_element(By.ID, "teach-utterance").get_attribute("value") == "how big be s0"
        lf = chrome.find_element(By.ID, "teach-lf")
        lf.clear()
        lf.send_keys("( area:i s0 )")
        chrome.find_element(By.ID, "add-example").click()
        assert "area:i" in chrome.find_element(By.ID, "pending").text
        chrome.find_element(By.ID, "teach").click()
        live = shown.text_to_be_present_in_element((By.ID, "job-status"), "version 1 is live")
        WebDriverWait(chrome, 180, ignored_exceptions=stale).until(live)
        assert chrome.find_element(By.ID, "progress").get_attribute("value") == "1"

        ask("how big be s0")
        wait.until(shown.text_to_be_present_in_element((By.ID, "version"), "version 1"))
        assert chrome.find_element(By.ID, "answered-by").text == "taught example"
        assert chrome.find_element(By.ID, "lf-text").text == "( area:i s0 )"
        assert [node.text for node in chrome.find_elements(By.CSS_SELECTOR, "#tree .node")] == ["area:i"]
        wait.until(shown.text_to_be_present_in_element((By.ID, "predicates"), "area:i"))
        wait.until(lambda driver: "active" in driver.find_element(By.ID, "version-1").get_attribute("class"))
        screenshot(chrome, tmp_path, "taught")

        # Roll back to the pre-trained parser from the versions table.
        wait.until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#version-0 button").click() or True)
        wait.until(lambda driver: "active" in driver.find_element(By.ID, "version-0").get_attribute("class"))
        ask("how big be s0")
        wait.until(shown.text_to_be_present_in_element((By.ID, "version"), "version 0"))
        screenshot(chrome, tmp_path, "rolled-back")
    finally:
        server.stop()
