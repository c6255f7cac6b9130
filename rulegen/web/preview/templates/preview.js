// The preview page's one script: each refresh the server announces replaces the page's content in place (no
// reload). body's data-shown and data-shown-at say which refresh is on screen and when it was (for the tests).
(() => {
  "use strict";
  const body = document.body;
  const preview = document.getElementById("preview");
  const connection = document.getElementById("connection");
  let shown = Number(body.dataset.generation);

  function mark(generation) {
    const done = () => {
      if (generation !== shown) return;
      body.dataset.shown = String(generation);
      body.dataset.shownAt = String(performance.timeOrigin + performance.now());
    };
    const frame = document.getElementById("rules-frame");
    if (frame) frame.addEventListener("load", done, { once: true }); else done();
  }

  body.dataset.shown = String(shown);
  body.dataset.shownAt = String(performance.timeOrigin + performance.now());
  const events = new EventSource("/events");
  events.addEventListener("open", () => { connection.textContent = "following the file"; });
  events.addEventListener("error", () => { connection.textContent = "reconnecting…"; });
  events.addEventListener("refresh", (event) => {
    const data = JSON.parse(event.data);
    if (data.generation <= shown) return;
    shown = data.generation;
    body.dataset.generation = String(shown);
    preview.innerHTML = data.main;
    mark(shown);
  });
})();
