/* The live tables' pages: the clocks counting down, the fragment of the page fetched again when
   the table changes (pushed events, else polling every 2 s), the forms posted without leaving the
   page, and the referee's tile picker. The screens of a whole tour (the hall, the chief referee's
   view) have no data-partition: every event of the tour refreshes them, at most once a second.
   Plain script, no build step; without it the pages work by form posts and (the watching ones)
   reload themselves. */
(function () {
  "use strict";

  var root = document.querySelector("[data-live]");
  if (!root) { return; }
  var box = root.querySelector("[data-live-fragment]");
  var fragmentUrl = root.getAttribute("data-fragment");
  var eventsUrl = root.getAttribute("data-events");
  var partition = root.getAttribute("data-partition");  // null on a tour's screen
  var POLL_MS = 2000;
  var GAP_MS = 1000;     // a tour's screen fetches its fragment at most this often on events
  var lastFetch = 0;
  var soonTimer = null;
  var again = null;      // asked again while a fetch was on its way: whether forced
  var offset = 0;        // the server's clock minus this device's, in ms
  var pending = false;   // a fetch of the fragment is on its way
  var posting = false;   // a form is on its way
  var poller = null;
  var SAFETY_MS = 5000;
  var dueTimer = null;

  function state() { return box.querySelector(".live-state"); }
  function version() { var s = state(); return s ? parseInt(s.getAttribute("data-version"), 10) : -1; }

  function syncClock() {
    var s = state();
    var now = s && Date.parse(s.getAttribute("data-now"));
    if (now) { offset = now - Date.now(); }
  }

  function format(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  /* Every countdown of the page; when one reaches zero, the table is asked again (the server
     records the clock that ran out on that request). */
  function tick() {
    var soonest = Infinity;
    box.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = (Date.parse(el.getAttribute("data-deadline")) - Date.now() - offset) / 1000;
      el.textContent = format(left);
      el.classList.toggle("countdown--low", left <= 5);
      el.classList.toggle("countdown--out", left <= 0);
      if (left > -5) { soonest = Math.min(soonest, left); }
    });
    if (soonest <= 0 && !dueTimer) {
      dueTimer = setTimeout(function () { dueTimer = null; refresh(true); }, 700);
    }
  }

  /* Something is being typed or picked: a new fragment would wipe it. */
  function busy() {
    var active = document.activeElement;
    if (box.querySelector("[data-dirty]")) { return true; }
    return !!(active && box.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)
              && active.type !== "submit");
  }

  function swap(html) {
    box.innerHTML = html;
    syncClock();
    bindPicker();
    tick();
  }

  function versionOf(html) {
    var match = /data-version="(\d+)"/.exec(html);
    return match ? parseInt(match[1], 10) : -1;
  }

  function refresh(force) {
    if (pending) { again = again || !!force; return; }
    if (posting || (!force && busy())) { return; }
    pending = true;
    lastFetch = Date.now();
    var url = fragmentUrl + "?version=" + encodeURIComponent(version());
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        if (response.status === 204) { return null; }
        if (!response.ok || !response.headers.get("X-Live-Fragment")) { throw new Error("not a fragment"); }
        return response.text();
      })
      .then(function (html) {
        // A post answered meanwhile may have shown a newer table already.
        if (html !== null && !posting && versionOf(html) >= version() && (force || !busy())) { swap(html); }
      })
      .catch(function () { /* the next round tries again */ })
      .then(function () {
        pending = false;
        if (again !== null) { soon(again); again = null; }  // what changed meanwhile is fetched too
      });
  }

  /* Refresh, but not sooner than GAP_MS after the last fetch: a burst of events (a tour's many
     tables) makes one fetch. */
  function soon(force) {
    if (soonTimer) { return; }
    var wait = Math.max(0, lastFetch + GAP_MS - Date.now());
    soonTimer = setTimeout(function () { soonTimer = null; refresh(!!force); }, wait);
  }

  function poll(every) {
    if (poller) { clearInterval(poller); }
    poller = setInterval(function () { refresh(false); }, every || POLL_MS);
  }

  /* Pushed events (one kind per action recorded) name the partition and its version: a newer one
     fetches the fragment; "reset" says events were missed (or too many to replay): the fragment is
     asked for again (the table's, unless its version is the one shown) and the events go on. */
  function listen() {
    if (!window.EventSource || !eventsUrl) { poll(); return; }
    var source = new EventSource(eventsUrl);
    function changed(event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (partition === null) { soon(); return; }
      if (String(data.partition) === partition && data.version > version()) { refresh(false); }
    }
    (root.getAttribute("data-event-kinds") || "").split(" ").forEach(function (kind) {
      if (kind) { source.addEventListener(kind, changed); }
    });
    source.addEventListener("reset", function () { if (partition === null) { soon(); } else { refresh(false); } });
    source.onopen = function () {  // connected (again): the events drive the page, from the table as it is
      /* A slow poll stays as a safety net: an open stream that a proxy or a lost subscription keeps
         silent must not freeze the page. */
      poll(SAFETY_MS);
      refresh(false);
    };
    source.onerror = function () {
      /* No events (none served, or the connection dropped): poll until the stream is open again
         (EventSource reconnects by itself unless the server refused the stream, e.g. 429: too many
         streams from this address; then the page polls). */
      poll();
    };
  }

  /* A form of the fragment is posted in the background: the answer is the new fragment, with the
     refusal in it when there is one. A form marked data-plain (the PIN) posts as usual. */
  box.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[method=post]") || form.hasAttribute("data-plain")) { return; }
    event.preventDefault();
    if (posting || (form.hasAttribute("data-hands-picker") && !checkHands(form))) { return; }
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) { data.append(event.submitter.name, event.submitter.value); }
    posting = true;
    form.classList.add("is-sending");
    fetch(form.getAttribute("action") || window.location.pathname,
          { method: "POST", body: data, credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        if (!response.headers.get("X-Live-Fragment")) { window.location.reload(); return null; }
        return response.text();
      })
      .then(function (html) { if (html !== null) { swap(html); } })
      .catch(function () { window.location.reload(); })
      .then(function () { posting = false; });
  });

  /* -- the referee's tile picker: the active seat gets each tile tapped; a tile goes once. -- */

  function handInputs(form) { return Array.prototype.slice.call(form.querySelectorAll("[data-hand]")); }
  function tilesOf(input) { return input.value.split(/[\s,]+/).filter(Boolean); }
  function same(a, b) { return a === b || a.split("-").reverse().join("-") === b; }

  function checkHands(form) {
    var seen = [], twice = [];
    handInputs(form).forEach(function (input) {
      tilesOf(input).forEach(function (tile) {
        if (seen.some(function (t) { return same(t, tile); })) { twice.push(tile); } else { seen.push(tile); }
      });
    });
    var error = form.querySelector("[data-picker-error]");
    if (twice.length) {
      error.textContent = form.getAttribute("data-twice") + " " + twice.join(" ");
      error.hidden = false;
      return false;
    }
    error.hidden = true;
    return true;
  }

  function bindPicker() {
    var form = box.querySelector("[data-hands-picker]");
    if (!form) { return; }
    var picker = form.querySelector("[data-picker]");
    var inputs = handInputs(form);
    var active = inputs[0];
    picker.hidden = false;

    function render() {
      var owner = {};
      inputs.forEach(function (input) {
        var tiles = tilesOf(input);
        tiles.forEach(function (tile) { owner[tile] = input.getAttribute("data-hand"); });
        var row = input.closest("[data-hand-row]");
        row.classList.toggle("hand-row--active", input === active);
        row.querySelector("[data-hand-count]").textContent = tiles.length + "/7";
      });
      picker.querySelectorAll("[data-pick]").forEach(function (button) {
        var tile = button.getAttribute("data-pick");
        var seat = owner[tile] || owner[tile.split("-").reverse().join("-")] || "";
        button.querySelector("[data-pick-seat]").textContent = seat;
        button.classList.toggle("pick-tile--taken", !!seat);
        button.classList.toggle("pick-tile--mine", seat === active.getAttribute("data-hand"));
        button.disabled = !!seat && seat !== active.getAttribute("data-hand");
      });
      var any = inputs.some(function (input) { return input.value.trim(); });
      if (any) { form.setAttribute("data-dirty", ""); } else { form.removeAttribute("data-dirty"); }
    }

    inputs.forEach(function (input) {
      input.addEventListener("focus", function () { active = input; render(); });
      input.addEventListener("input", render);
      input.closest("[data-hand-row]").addEventListener("click", function () { active = input; render(); });
    });
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("[data-pick]");
      if (!button || button.disabled) { return; }
      var tile = button.getAttribute("data-pick");
      var tiles = tilesOf(active);
      var at = tiles.indexOf(tile);
      if (at >= 0) {
        tiles.splice(at, 1);
      } else if (tiles.length < 7) {
        tiles.push(tile);
      }
      active.value = tiles.join(" ");
      if (tiles.length === 7) {  // the next hand not yet full
        var next = inputs.filter(function (input) { return tilesOf(input).length < 7; })[0];
        if (next) { active = next; }
      }
      render();
    });
    render();
  }

  syncClock();
  bindPicker();
  tick();
  setInterval(tick, 250);
  listen();
}());
