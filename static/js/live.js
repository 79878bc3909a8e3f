/* The live tables' pages: the clocks counting down, the fragment of the page fetched again when
   the table changes (pushed events, else polling every 2 s) and updated in place (a form being
   filled in keeps what was typed), the forms posted without leaving the page, in the order they
   were tapped, and the referee's tile picker. The screens of a whole tour (the hall, the chief referee's
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
  var again = false;     // asked again while a fetch was on its way
  var waiting = false;   // a refresh held back while a field was being filled in
  var touched = {};      // the data-keep keys of the forms typed in since they were last posted
  var queue = [];        // the forms submitted, sent one after the other's answer
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
      dueTimer = setTimeout(function () { dueTimer = null; refresh(); }, 700);
    }
  }

  function keepOf(el) { var kept = el.closest("[data-keep]"); return kept ? kept.getAttribute("data-keep") : null; }

  /* Something is being typed or picked in a form a new fragment would wipe (one without data-keep:
     those keep what was typed across a swap). */
  function busy() {
    var active = document.activeElement;
    var dirty = Array.prototype.some.call(box.querySelectorAll("[data-dirty]"), function (el) { return !keepOf(el); });
    return dirty || !!(active && box.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)
                       && active.type !== "submit" && !keepOf(active));
  }

  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && !/^(hidden|submit|button|reset)$/.test(el.type);
    });
  }

  /* What the user typed, picked or opened in each data-keep form or details: carried into the new
     fragment's element of the same key, with the focus and the caret. */
  function kept() {
    var active = document.activeElement;
    return Array.prototype.map.call(box.querySelectorAll("[data-keep]"), function (el) {
      var key = el.getAttribute("data-keep");
      var entry = { key: key, open: el.tagName === "DETAILS" ? el.open : null, fields: null, focus: null };
      if (el.tagName === "FORM" && (touched[key] || el.hasAttribute("data-dirty"))) {
        entry.fields = fields(el).map(function (f) { return { name: f.name, value: f.value, checked: f.checked }; });
        entry.details = Array.prototype.map.call(el.querySelectorAll("details"), function (d) { return d.open; });
      }
      if (el.tagName === "FORM" && active && el.contains(active) && active.name) {
        entry.focus = { name: active.name, value: active.value, start: caret(active, "selectionStart"),
                        end: caret(active, "selectionEnd") };
      }
      return entry;
    });
  }

  function caret(input, which) { try { return input[which]; } catch (e) { return null; } }

  function restore(entries) {
    entries.forEach(function (entry) {
      var el = box.querySelector("[data-keep=\"" + entry.key.replace(/["\\]/g, "") + "\"]");
      if (!el) { return; }
      if (entry.open !== null) { el.open = entry.open; }
      if (entry.fields) {
        var checkable = {};
        entry.fields.forEach(function (f) { if (f.checked) { checkable[f.name + "\n" + f.value] = true; } });
        var values = {};
        entry.fields.forEach(function (f) { if (!(f.name in values)) { values[f.name] = f.value; } });
        fields(el).forEach(function (f) {
          if (f.type === "radio" || f.type === "checkbox") { f.checked = !!checkable[f.name + "\n" + f.value]; }
          else if (f.name in values) { f.value = values[f.name]; }
        });
        el.querySelectorAll("details").forEach(function (d, i) { if (i < entry.details.length) { d.open = entry.details[i]; } });
      }
      if (entry.focus) {
        var target = fields(el).filter(function (f) {
          return f.name === entry.focus.name && (!/^(radio|checkbox)$/.test(f.type) || f.value === entry.focus.value);
        })[0];
        if (target) {
          target.focus({ preventScroll: true });
          if (entry.focus.start !== null) { try { target.setSelectionRange(entry.focus.start, entry.focus.end); } catch (e) { /* no caret */ } }
        }
      }
    });
  }

  function swap(html) {
    var entries = kept();
    box.innerHTML = html;
    restore(entries);
    syncClock();
    bindPicker();
    tick();
  }

  box.addEventListener("input", function (event) {
    var key = event.target.form && event.target.form.getAttribute("data-keep");
    if (key) { touched[key] = true; }
  });
  box.addEventListener("change", function (event) {
    var key = event.target.form && event.target.form.getAttribute("data-keep");
    if (key) { touched[key] = true; }
  });
  /* A refresh held back while a field was filled in comes once the focus leaves it. */
  box.addEventListener("focusout", function () {
    if (waiting) { waiting = false; setTimeout(refresh, 0); }
  });

  function versionOf(html) {
    var match = /data-version="(\d+)"/.exec(html);
    return match ? parseInt(match[1], 10) : -1;
  }

  function refresh() {
    if (pending) { again = true; return; }
    if (posting) { return; }
    if (busy()) { waiting = true; return; }
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
        if (html === null || posting || versionOf(html) < version()) { return; }
        if (busy()) { waiting = true; } else { swap(html); }
      })
      .catch(function () { /* the next round tries again */ })
      .then(function () {
        pending = false;
        if (again) { again = false; soon(); }  // what changed meanwhile is fetched too
      });
  }

  /* Refresh, but not sooner than GAP_MS after the last fetch: a burst of events (a tour's many
     tables) makes one fetch. */
  function soon() {
    if (soonTimer) { return; }
    var wait = Math.max(0, lastFetch + GAP_MS - Date.now());
    soonTimer = setTimeout(function () { soonTimer = null; refresh(); }, wait);
  }

  function poll(every) {
    if (poller) { clearInterval(poller); }
    poller = setInterval(refresh, every || POLL_MS);
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
      if (String(data.partition) === partition && data.version > version()) { refresh(); }
    }
    (root.getAttribute("data-event-kinds") || "").split(" ").forEach(function (kind) {
      if (kind) { source.addEventListener(kind, changed); }
    });
    source.addEventListener("reset", function () { if (partition === null) { soon(); } else { refresh(); } });
    source.onopen = function () {  // connected (again): the events drive the page, from the table as it is
      /* A slow poll stays as a safety net: an open stream that a proxy or a lost subscription keeps
         silent must not freeze the page. */
      poll(SAFETY_MS);
      refresh();
    };
    source.onerror = function () {
      /* No events (none served, or the connection dropped): poll until the stream is open again
         (EventSource reconnects by itself unless the server refused the stream, e.g. 429: too many
         streams from this address; then the page polls). */
      poll();
    };
  }

  /* A form of the fragment is posted in the background: the answer is the new fragment, with the
     refusal in it when there is one. A form submitted while another is on its way waits for that
     answer, then goes as it was tapped (the server refuses it, on the page, if the table moved on
     meanwhile: a move for a turn that is over), so no tap is lost. A form marked data-plain (the
     PIN) posts as usual. */
  box.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[method=post]") || form.hasAttribute("data-plain")) { return; }
    event.preventDefault();
    if (form.hasAttribute("data-hands-picker") && !checkHands(form)) { return; }
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) { data.append(event.submitter.name, event.submitter.value); }
    (event.submitter || form).classList.add(posting ? "is-queued" : "is-sending");
    queue.push({ form: form, data: data, key: form.getAttribute("data-keep") });
    if (!posting) { send(); }
  });

  function send() {
    var item = queue.shift();
    posting = !!item;
    if (!item) { return; }
    fetch(item.form.getAttribute("action") || window.location.pathname,
          { method: "POST", body: item.data, credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        if (!response.headers.get("X-Live-Fragment")) { window.location.reload(); return null; }
        if (response.ok && item.key) { delete touched[item.key]; }  // recorded: a new form starts blank
        return response.text();
      })
      .then(function (html) { if (html !== null) { swap(html); } })
      .catch(function () { window.location.reload(); })
      .then(send);
  }

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
