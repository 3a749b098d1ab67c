// The projector pages itself: one screen at a time, each up for the page's data-seconds.  Without
// this script a CSS animation does the same (a file written by `tournament report --screen`); here
// the script takes over so that a live update (live.js swaps the screens in) carries on from the
// screen on show instead of starting the round again.  The round's clock counts down each second.
"use strict";
(function () {
  const seconds = Number(document.body.dataset.seconds || 8);
  let at = 0;
  document.body.classList.add("paging");
  function screens() { return Array.from(document.querySelectorAll("#main .screen")); }
  function show() {
    const all = screens();
    if (!all.length) return;
    at = at % all.length;
    all.forEach((s, k) => s.classList.toggle("on", k === at));
  }
  function tick() {
    const clock = document.getElementById("clock");
    if (!clock) return;
    const left = Math.round((Date.parse(clock.dataset.ends) - Date.now()) / 1000);
    if (left <= 0) {
      clock.textContent = clock.dataset.up;
      clock.classList.add("up");
    } else {
      const m = Math.floor(left / 60), s = left % 60;
      clock.textContent = clock.dataset.left.replace("{time}", m + ":" + String(s).padStart(2, "0"));
      clock.classList.remove("up");
    }
  }
  setInterval(() => { at += 1; show(); }, seconds * 1000);
  setInterval(tick, 1000);
  document.addEventListener("live:updated", () => { show(); tick(); });
  show();
  tick();
})();
