/* The page of a tour's batch (protocols or paper): asks the batch's status JSON every 2 s and
   moves the progress bar and its count; when the batch changes state (ready, stalled, failed,
   replaced) the page is loaded again to show what can be done next. Without this script the
   page reloads itself (a <noscript> refresh) and has a refresh link. */
(function () {
  "use strict";

  var box = document.getElementById("batch-progress");
  if (!box) { return; }
  var status = box.getAttribute("data-status");
  if (status !== "running" && status !== "assembling") { return; }
  var url = box.getAttribute("data-status-url");
  var stalled = box.getAttribute("data-stalled") === "true";
  var bar = box.querySelector("progress");
  var count = box.querySelector("[data-batch-count]");
  var template = count.textContent;
  var shown = {done: box.getAttribute("data-done"), total: box.getAttribute("data-total")};
  var POLL_MS = 2000;

  function poll() {
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.json();
      })
      .then(function (progress) {
        if (progress.status !== status || progress.stalled !== stalled) {
          window.location.reload();
          return;
        }
        bar.value = progress.done;
        // The count's words are the server's (translated): only its numbers change.
        count.textContent = template.replace(new RegExp("\\b" + shown.done + "\\b"), progress.done).replace(/\(\d+%\)/, "(" + progress.percent + "%)");
        shown.done = String(progress.done);
        template = count.textContent;
        box.setAttribute("data-done", progress.done);
        setTimeout(poll, POLL_MS);
      })
      .catch(function () { setTimeout(poll, POLL_MS * 2); });
  }

  setTimeout(poll, POLL_MS);
})();
