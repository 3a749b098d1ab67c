/* The replay page's drawing helpers: svg.py and the text helpers of domrec/errors.py, for the
   ports of the picture modules (frame.js, tiles.js and one file a game).  Elements are made
   with the DOM (createElementNS, setAttribute, textContent), never from markup, so a name
   from a record is only ever text.  Numbers are written as svg.py writes them (a tenth of a
   unit, rounded half to even as Python rounds), so a page's picture is the module's own. */
var domrecPictures = (function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

  /* Python's format(v, ".{digits}f"): the exact decimal value of the double, rounded half to even
     (toFixed(100) gives that exact value's digits; toFixed alone rounds ties away from zero). */
  function fixed(v, digits) {
    if (!isFinite(v)) { return String(v); }
    var negative = v < 0 || (v === 0 && 1 / v < 0);
    var exact = Math.abs(v).toFixed(100);
    var point = exact.indexOf(".");
    var whole = exact.slice(0, point), fraction = exact.slice(point + 1);
    var kept = whole + fraction.slice(0, digits), rest = fraction.slice(digits);
    var up = false;
    if (rest[0] > "5") { up = true; }
    else if (rest[0] === "5") {
      up = /[1-9]/.test(rest.slice(1)) || (+kept[kept.length - 1]) % 2 === 1;
    }
    var digitsOf = kept.split("");
    if (up) {
      var i = digitsOf.length - 1;
      while (i >= 0 && digitsOf[i] === "9") { digitsOf[i] = "0"; i--; }
      if (i < 0) { digitsOf.unshift("1"); } else { digitsOf[i] = String(+digitsOf[i] + 1); }
    }
    var all = digitsOf.join("");
    var head = all.slice(0, all.length - digits) || "0";
    var text = digits ? head + "." + all.slice(all.length - digits) : head;
    return (negative ? "-" : "") + text;
  }

  /* An attribute value as svg._attrs writes it: a number to a tenth, trailing zeros dropped. */
  function num(v) {
    if (Number.isInteger(v)) { return String(v); }
    var s = fixed(v, 1);
    return s.indexOf(".") < 0 ? s : s.replace(/0+$/, "").replace(/\.$/, "");
  }

  /* Python's float floor division (a // b), which is not always Math.floor(a / b). */
  function floorDiv(a, b) {
    var mod = a % b, div = (a - mod) / b;
    if (mod && ((b < 0) !== (mod < 0))) { div -= 1; }
    if (!div) { return 0; }
    var floor = Math.floor(div);
    return div - floor > 0.5 ? floor + 1 : floor;
  }

  /* Python's len(): code points, not UTF-16 units. */
  function len(text) { return Array.from(text).length; }

  var CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;
  var ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"};

  /* errors.one_line: control characters written as Python's unicode_escape writes them. */
  function oneLine(text) {
    return text.replace(CONTROL, function (c) {
      if (ESCAPES[c]) { return ESCAPES[c]; }
      var code = c.charCodeAt(0);
      return code < 0x100 ? "\\x" + ("0" + code.toString(16)).slice(-2) : "\\u" + code.toString(16);
    });
  }

  /* errors.clip: at most ``limit`` characters (an ellipsis after), on one line. */
  function clip(text, limit) {
    var chars = Array.from(text);
    return oneLine(chars.length <= limit ? text : chars.slice(0, limit).join("") + "\u2026");
  }

  /* svg.py's text_width and fit_text: a text's width guessed character by character (hundredths
     of the font size), and a text shortened with an ellipsis to fit ``room`` px. */
  var WIDE = [9728, 10175, 11904, 55203, 63744, 65376, 126976, 262141];  /* svg._WIDE: first, last */
  function em(c) {
    for (var n = c.codePointAt(0), i = 0; i < 8; i += 2) { if (WIDE[i] <= n && n <= WIDE[i + 1]) { return 100; } }
    return "ijlI.,:;'|! ".indexOf(c) >= 0 ? 33 : "MWmw@%\u2026".indexOf(c) >= 0 ? 100 : c >= "A" && c <= "Z" ? 80 : 64;
  }
  function ems(cs) { return cs.reduce(function (w, c) { return w + em(c); }, 0); }
  function textWidth(text, size) { return ems(Array.from(text)) * size / 100; }
  function fitText(text, room, size) {
    var cs = Array.from(text), w = 100, k = 0;
    if (ems(cs) * size <= room * 100) { return clip(text, cs.length); }
    while ((w += em(cs[k])) * size <= room * 100) { k++; }
    return clip(text, k);
  }

  /* An element with its attributes in order ([name, value] pairs; null values left out). */
  function element(tag, attrs) {
    var node = document.createElementNS(NS, tag);
    (attrs || []).forEach(function (pair) {
      var value = pair[1];
      if (value === null || value === undefined) { return; }
      node.setAttribute(pair[0], typeof value === "number" ? num(value) : String(value));
    });
    return node;
  }

  function sub(parent, tag, attrs) {
    var node = element(tag, attrs);
    parent.appendChild(node);
    return node;
  }

  /* A line of text; the font is added last, as svg.text adds it. */
  function text(parent, x, y, words, attrs) {
    var all = [["x", x], ["y", y]].concat(attrs || []);
    if (!all.some(function (pair) { return pair[0] === "font-family"; })) { all.push(["font-family", FONT]); }
    var node = sub(parent, "text", all);
    node.textContent = words;
    return node;
  }

  function title(parent, words) {
    var node = sub(parent, "title");
    node.textContent = words;
    return node;
  }

  /* pictures/__init__.py's fit, legible and for_room: a board drawn for the room a phone's felt has,
     or (no room) as on a wide screen, its texts sized for ``scale`` (none: 1). */
  var MIN_TEXT = 11;
  function fit(room, width) { return Math.min(1, room / Math.max(width, 1)); }
  function legible(size, scale) {
    return scale === null ? size : Math.max(size, Math.ceil(MIN_TEXT / scale * 10) / 10);
  }
  function forRoom(drawAt) {
    return function (scene, room, scale) {
      if (room === undefined || room === null) {
        return drawAt(scene, null, scale === undefined || scale === null ? 1 : scale);
      }
      var first = drawAt(scene, room, 1), scale = fit(room, first.width);
      return scale === 1 ? first : drawAt(scene, room, scale);
    };
  }

  return {NS: NS, FONT: FONT, fixed: fixed, num: num, floorDiv: floorDiv, len: len, oneLine: oneLine,
          clip: clip, textWidth: textWidth, fitText: fitText, element: element, sub: sub, text: text, title: title, fit: fit, legible: legible,
          forRoom: forRoom, games: Object.create(null)};
})();
