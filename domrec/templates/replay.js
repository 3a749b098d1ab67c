/* The replay page's stepping (domrec.replay_page).  Every position is already in the page;
   this only chooses which one each hand shows, and keeps the counter, the scores, the move
   list and the address (#h2-m14) in step.  It reads the page and writes text only. */
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.remove("nojs");
  root.classList.add("js");
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.hand"))
    .filter(function (s) { return s.querySelector(".pos"); });
  var active = null;

  function frames(sec) { return sec.querySelectorAll(".pos"); }

  function index(sec) {
    var f = frames(sec);
    for (var i = 0; i < f.length; i++) { if (f[i].classList.contains("current")) { return i; } }
    return f.length - 1;
  }

  function reveal(list, item) {  /* scroll the move list itself, never the page */
    if (!item) { return; }
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (bottom > list.scrollTop + list.clientHeight) { list.scrollTop = bottom - list.clientHeight; }
  }

  function show(sec, i, address) {
    var f = frames(sec);
    if (!f.length) { return; }
    i = Math.max(0, Math.min(f.length - 1, i));
    for (var k = 0; k < f.length; k++) { f[k].classList.toggle("current", k === i); }
    var move = f[i].getAttribute("data-move");
    sec.querySelector(".counter").textContent = f[i].getAttribute("data-counter");
    sec.querySelector(".scores").textContent = f[i].getAttribute("data-scores");
    var list = sec.querySelector(".moves"), items = list ? list.children : [], now = null;
    for (var j = 0; j < items.length; j++) {
      var here = items[j].getAttribute("data-move") === move;
      items[j].classList.toggle("current", here);
      if (here) { items[j].setAttribute("aria-current", "step"); now = items[j]; }
      else { items[j].removeAttribute("aria-current"); }
    }
    if (list && now) { reveal(list, now.nextElementSibling); reveal(list, now); }
    var buttons = sec.querySelectorAll("button[data-go]");
    for (var b = 0; b < buttons.length; b++) {
      var go = buttons[b].getAttribute("data-go");
      var off = (go === "first" || go === "prev") ? i === 0 : i === f.length - 1;
      buttons[b].setAttribute("aria-disabled", off ? "true" : "false");
    }
    active = sec;
    if (address && window.history && history.replaceState) {
      try { history.replaceState(null, "", "#" + f[i].id); } catch (e) { /* a page without an address */ }
    }
  }

  function step(sec, go) {
    var i = index(sec), n = frames(sec).length;
    var to = {first: 0, prev: i - 1, next: i + 1, last: n - 1}[go];
    if (to !== undefined) { show(sec, to, true); }
  }

  function visible(sec) {
    var r = sec.getBoundingClientRect();
    return Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
  }

  function onScreen() {
    var best = null, most = 0;
    sections.forEach(function (s) { var v = visible(s); if (v > most) { most = v; best = s; } });
    return best;
  }

  function go(anchor) {  /* an address naming a position: #h2-m14 */
    var target = anchor && document.getElementById(anchor);
    if (!target || !target.classList.contains("pos")) { return false; }
    var sec = target.closest("section.hand");
    show(sec, Array.prototype.indexOf.call(frames(sec), target), false);
    sec.scrollIntoView({block: "start"});
    return true;
  }

  sections.forEach(function (sec) {
    sec.addEventListener("click", function (e) {
      var button = e.target.closest("button[data-go]");
      if (button) { step(sec, button.getAttribute("data-go")); return; }
      var link = e.target.closest(".moves a");
      if (link) {
        var target = document.getElementById(link.getAttribute("href").slice(1));
        if (target) {
          e.preventDefault();
          show(sec, Array.prototype.indexOf.call(frames(sec), target), true);
        }
        return;
      }
      active = sec;
    });
    sec.addEventListener("focusin", function () { active = sec; });
    show(sec, sec.hasAttribute("data-open") ? +sec.getAttribute("data-open") : index(sec), false);
  });

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
    if (!(e.key in keys)) { return; }
    var sec = (t && t.closest && t.closest("section.hand")) || active;
    if (!sec || sections.indexOf(sec) < 0 || !visible(sec)) { sec = onScreen(); }
    if (!sec) { return; }
    e.preventDefault();
    step(sec, keys[e.key]);
  });

  window.addEventListener("hashchange", function () { go(location.hash.slice(1)); });

  if (!go(location.hash.slice(1))) {
    var first = document.querySelector("section.hand[data-first-problem]");
    if (first) { active = first; first.scrollIntoView({block: "start"}); }
  }
})();
