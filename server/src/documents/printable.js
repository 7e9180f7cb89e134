// Lays the paper out in A4 pages of its own, so that every engine prints the same
// pages (issue 33, defect 10): each page starts with the strip that says whose it
// is (Name, Attempt) and ends with "Page k of n"; a question is never split from
// its first lines, and a long written answer goes on over the page, its ruled
// lines split between pages rather than leaving half of one empty. WebKitGTK (the
// desktop's print window) repeats no table head, no fixed element and no page
// margin box, so the pages are made here, not left to the printer. Without this
// script the flow still prints, with the strip on the first page only.
(function () {
  "use strict";
  var MM = 96 / 25.4;
  // What a page's strip and questions may fill: a page (262 mm: WebKitGTK prints
  // 266 mm of the 269 mm page box at most, Chromium all of it) less its foot
  // (8 mm) and a little for rounding, so that a page never spills onto the next.
  var PAGE = 252 * MM;
  var LINE = 8.5 * MM;
  var source = document.getElementById("flow");
  var strip = document.querySelector(".running");
  if (!source || !strip) return;
  var blocks = [];
  Array.prototype.forEach.call(source.children, function (child) {
    if (child.tagName === "OL") {
      Array.prototype.forEach.call(child.children, function (question) { blocks.push(question); });
    } else {
      blocks.push(child);
    }
  });
  var pages = [];
  var page, list, body, used;
  function newPage() {
    page = document.createElement("section");
    page.className = "page";
    page.appendChild(strip.cloneNode(true));
    body = document.createElement("div");
    body.className = "page-body";
    page.appendChild(body);
    list = null;
    document.body.appendChild(page);
    pages.push(page);
    used = page.firstChild.getBoundingClientRect().height + marginOf(page.firstChild);
  }
  function marginOf(element) {
    var style = window.getComputedStyle(element);
    return parseFloat(style.marginTop) + parseFloat(style.marginBottom);
  }
  function outer(element) {
    return element.getBoundingClientRect().height + marginOf(element);
  }
  function place(element) {
    if (element.tagName === "LI") {
      if (!list) {
        list = document.createElement("ol");
        list.className = "questions";
        body.appendChild(list);
      }
      list.appendChild(element);
    } else {
      list = null;
      body.appendChild(element);
    }
  }
  newPage();
  blocks.forEach(function (block) {
    var rest = block.querySelector ? block.querySelector(".answer-rest") : null;
    if (rest) rest.parentNode.removeChild(rest);
    place(block);
    var height = outer(block);
    if (used + height > PAGE && used > outer(page.firstChild) + 1) {
      newPage();
      place(block);
      height = outer(block);
    }
    used += height;
    if (!rest) return;
    // The rest of a written answer: whole lines on this page, the others on the
    // pages after it, each part on a page of its own under "Question n, continued".
    var lines = Math.round(parseFloat(rest.style.height) / 8.5);
    while (lines > 0) {
      var room = Math.floor((PAGE - used) / LINE);
      if (room < 1) {
        block = continuation(block);
        continue;
      }
      var take = Math.min(room, lines);
      var part = rest.cloneNode(false);
      part.style.height = (take * 8.5) + "mm";
      if (take < lines) part.className += " continues";
      block.appendChild(part);
      used += part.getBoundingClientRect().height;
      lines -= take;
      if (lines > 0) block = continuation(block);
    }
  });
  function continuation(block) {
    newPage();
    var after = document.createElement("li");
    after.className = "question written continued";
    var head = document.createElement("div");
    head.className = "question-head";
    head.textContent = "Question " + block.getAttribute("data-question") + ", continued";
    after.appendChild(head);
    after.setAttribute("data-question", block.getAttribute("data-question"));
    place(after);
    used += outer(after);
    return after;
  }
  pages.forEach(function (each, index) {
    var foot = document.createElement("p");
    foot.className = "page-foot";
    foot.textContent = strip.getAttribute("data-snapshot") + " · Page " + (index + 1) + " of " + pages.length;
    each.appendChild(foot);
  });
  source.parentNode.removeChild(source);
  strip.parentNode.removeChild(strip);
  document.documentElement.className += " paginated";
})();
