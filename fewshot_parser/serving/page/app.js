// The page of `allennlp serve`: plain JavaScript, no build step, nothing fetched but this server's API.
"use strict";

const $ = (id) => document.getElementById(id);
let pending = [];
let tokenRequired = false;

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = $("token").value.trim();
  if (token) headers["Authorization"] = "Bearer " + token;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: "not JSON (status " + response.status + ")" }));
  if (!response.ok) throw new Error(data.error || ("status " + response.status));
  return data;
}

function show(element, text) {
  element.textContent = text;
  element.hidden = !text;
}

// An LF as a tree: "( f a ( g b ) )" (lambda calculus) or "f ( a , g ( b ) )" (Prolog).
function parseTree(text) {
  const tokens = text.replace(/\(/g, " ( ").replace(/\)/g, " ) ").replace(/,/g, " , ").split(/\s+/).filter(Boolean);
  let position = 0;
  function group() {  // after "(": the items up to the matching ")"
    const items = [];
    while (position < tokens.length && tokens[position] !== ")") items.push(item());
    position++;  // ")"
    return items;
  }
  function item() {
    const token = tokens[position++];
    if (token === "(") {
      const items = group();
      if (items.length && typeof items[0] === "string") return { label: items[0], children: items.slice(1) };
      return { label: "( )", children: items };
    }
    if (tokens[position] === "(") {  // Prolog: name ( arguments )
      position++;
      return { label: token, children: group().filter((x) => x !== ",") };
    }
    return token;
  }
  const items = [];
  while (position < tokens.length) {
    const next = item();
    if (next !== ",") items.push(next);
  }
  return items.length === 1 ? items[0] : { label: "and (,)", children: items };
}

function renderTree(node) {
  const li = document.createElement("li");
  const span = document.createElement("span");
  if (typeof node === "string") {
    span.className = "leaf";
    span.textContent = node;
    li.appendChild(span);
    return li;
  }
  span.className = "node";
  span.textContent = node.label;
  li.appendChild(span);
  if (node.children.length) {
    const ul = document.createElement("ul");
    node.children.forEach((child) => ul.appendChild(renderTree(child)));
    li.appendChild(ul);
  }
  return li;
}

function showTree(lf) {
  const tree = $("tree");
  tree.innerHTML = "";
  if (!lf) return;
  const ul = document.createElement("ul");
  ul.appendChild(renderTree(parseTree(lf)));
  tree.appendChild(ul);
}

async function parse(event) {
  event.preventDefault();
  show($("parse-error"), "");
  try {
    const data = await api("POST", "/api/parse", { utterances: [$("utterance").value] });
    const result = data.results[0];
    $("answer").hidden = false;
    $("lf-text").textContent = result.logical_form || "(no logical form)";
    $("answered-by").textContent = result.answered_by;
    $("version").textContent = "version " + result.version;
    showTree(result.logical_form);
  } catch (error) {
    show($("parse-error"), error.message);
  }
}

function renderPending() {
  const list = $("pending");
  list.innerHTML = "";
  pending.forEach((example, index) => {
    const li = document.createElement("li");
    li.textContent = example.utterance + "  →  " + example.logical_form + " ";
    const remove = document.createElement("button");
    remove.textContent = "remove";
    remove.type = "button";
    remove.onclick = () => { pending.splice(index, 1); renderPending(); };
    li.appendChild(remove);
    list.appendChild(li);
  });
  $("teach").disabled = pending.length === 0;
}

function addExample(event) {
  event.preventDefault();
  pending.push({ utterance: $("teach-utterance").value, logical_form: $("teach-lf").value });
  $("teach-utterance").value = "";
  $("teach-lf").value = "";
  renderPending();
}

async function teach() {
  show($("teach-error"), "");
  $("teach").disabled = true;
  try {
    const data = await api("POST", "/api/teach", { examples: pending });
    pending = [];
    renderPending();
    $("job").hidden = false;
    follow(data.job);
  } catch (error) {
    show($("teach-error"), error.message);
    $("teach").disabled = pending.length === 0;
  }
}

async function follow(job) {
  const bar = $("progress");
  let data;
  try {
    data = await api("GET", "/api/jobs/" + job);
  } catch (error) {
    show($("teach-error"), error.message);
    return;
  }
  let text = "job " + job + ": " + data.status;
  if (data.status === "queued") {
    bar.removeAttribute("value");
  } else if (data.status === "running") {
    bar.value = data.epochs ? data.epoch / data.epochs : 0;
    text += " — " + data.phase + (data.epochs ? ", epoch " + data.epoch + "/" + data.epochs : "") +
      ", " + Math.round(data.seconds) + " s";
  } else if (data.status === "done") {
    bar.value = 1;
    text += " — version " + data.version + (data.live ? " is live" : " is loading");
  } else {
    bar.value = 0;
    text += " — " + data.error;
  }
  $("job-status").textContent = text;
  if (data.status === "queued" || data.status === "running" || (data.status === "done" && !data.live)) {
    setTimeout(() => follow(job), 500);
  } else {
    refreshLists();
  }
}

async function activate(version) {
  try {
    await api("POST", "/api/versions/" + version + "/activate");
  } catch (error) {
    show($("teach-error"), error.message);
  }
  refreshLists();
}

async function refreshLists() {
  try {
    const [predicates, versions, health] = await Promise.all([
      api("GET", "/api/predicates"), api("GET", "/api/versions"), api("GET", "/api/health")]);
    tokenRequired = health.token_required;
    $("token-box").hidden = !tokenRequired;
    $("health").textContent = "version " + health.answering + " answering" +
      (health.running ? ", teaching" : "") + (health.queued ? ", " + health.queued + " queued" : "");
    const list = $("predicates");
    list.innerHTML = "";
    predicates.taught.forEach((entry) => {
      const li = document.createElement("li");
      li.innerHTML = "<code></code> (version <span></span>): ";
      li.children[0].textContent = entry.predicate;
      li.children[1].textContent = entry.version === null ? "not yet" : entry.version;
      li.appendChild(document.createTextNode(entry.examples.map((e) => e.utterance).join("; ")));
      list.appendChild(li);
    });
    if (!predicates.taught.length) list.innerHTML = "<li>none yet</li>";
    const corrections = $("corrections");
    corrections.innerHTML = "";
    predicates.corrections.forEach((entry) => {
      const li = document.createElement("li");
      li.textContent = entry.utterance + "  →  " + entry.logical_form +
        " (version " + (entry.version === null ? "not yet" : entry.version) + ")";
      corrections.appendChild(li);
    });
    if (!predicates.corrections.length) corrections.innerHTML = "<li>none yet</li>";
    const body = document.querySelector("#versions tbody");
    body.innerHTML = "";
    versions.versions.forEach((version) => {
      const row = document.createElement("tr");
      row.className = version.active ? "active" : "";
      row.id = "version-" + version.version;
      [version.version + (version.version === 0 ? " (pre-trained)" : ""), version.predicates.join(", "),
       String(version.examples)].forEach((text) => {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.appendChild(cell);
      });
      const cell = document.createElement("td");
      if (version.active) {
        cell.textContent = "active";
      } else {
        const button = document.createElement("button");
        button.textContent = version.version < versions.active ? "roll back" : "activate";
        button.onclick = () => activate(version.version);
        cell.appendChild(button);
      }
      row.appendChild(cell);
      body.appendChild(row);
    });
  } catch (error) {
    $("health").textContent = "server unreachable: " + error.message;
  }
}

$("parse-form").addEventListener("submit", parse);
$("example-form").addEventListener("submit", addExample);
$("teach").addEventListener("click", teach);
$("correct").addEventListener("click", () => {
  $("teach-utterance").value = $("utterance").value;
  $("teach-lf").value = $("lf-text").textContent;
  $("teach-lf").focus();
});
refreshLists();
setInterval(refreshLists, 5000);
