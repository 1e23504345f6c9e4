(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("gallery-data").textContent);
  const cards = Array.from(document.querySelectorAll("article.card"));
  const grid = document.getElementById("cards");
  const waiting = new Map();
  const pixelCache = new Map();

  window.LookGallery = {
    register(key, uri) {
      const w = waiting.get(key);
      if (w) { waiting.delete(key); w.resolve(uri); }
    }
  };

  function loadURI(ref) {
    return new Promise((resolve, reject) => {
      waiting.set(ref.key, { resolve, reject });
      const s = document.createElement("script");
      s.src = ref.script;
      s.onload = () => {
        s.remove();
        if (waiting.has(ref.key)) { waiting.delete(ref.key); reject(new Error(ref.script + " registered nothing")); }
      };
      s.onerror = () => { s.remove(); waiting.delete(ref.key); reject(new Error("cannot load " + ref.script)); };
      document.head.appendChild(s);
    });
  }

  function decode(uri) {
    return new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => {
        const c = document.createElement("canvas");
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const ctx = c.getContext("2d", { willReadFrequently: true });
        ctx.drawImage(img, 0, 0);
        resolve(ctx.getImageData(0, 0, c.width, c.height));
      };
      img.onerror = () => reject(new Error("cannot decode a preview"));
      img.src = uri;
    });
  }

  function pixels(ref) {
    if (!pixelCache.has(ref.key)) pixelCache.set(ref.key, loadURI(ref).then(decode));
    return pixelCache.get(ref.key);
  }

  // Columns left of `splitX` keep the before pixels; the rest get before + s·(after − before).
  function blend(before, after, s, out, splitX) {
    const b = before.data, a = after.data, o = out.data, w = out.width;
    for (let i = 0, p = 0; i < o.length; i += 4, p++) {
      if (p % w < splitX) {
        o[i] = b[i]; o[i + 1] = b[i + 1]; o[i + 2] = b[i + 2];
      } else {
        o[i] = b[i] + s * (a[i] - b[i]);
        o[i + 1] = b[i + 1] + s * (a[i + 1] - b[i + 1]);
        o[i + 2] = b[i + 2] + s * (a[i + 2] - b[i + 2]);
      }
      o[i + 3] = 255;
    }
  }

  function state(card) {
    return {
      s: Number(card.querySelector(".strength").value) / 100,
      split: card.querySelector(".split").checked,
      pos: Number(card.querySelector(".split-pos").value) / 100
    };
  }

  function render(card) {
    const look = data.looks[Number(card.dataset.index)];
    const st = state(card);
    const generation = (card.lgGeneration || 0) + 1;
    card.lgGeneration = generation;
    card.querySelector(".strength-value").textContent = Math.round(st.s * 100) + " %";
    card.querySelector(".split-pos").hidden = !st.split;
    const views = Array.from(card.querySelectorAll(".view"));
    const jobs = views.map(async (view, i) => {
      const img = view.querySelector("img"), canvas = view.querySelector("canvas");
      const divider = view.querySelector(".divider");
      if (st.s === 1 && !st.split) {
        canvas.hidden = true; img.hidden = false; divider.hidden = true;
        return;
      }
      const [before, after] = await Promise.all([pixels(data.photos[i].before), pixels(look.previews[i])]);
      if (card.lgGeneration !== generation) return;
      if (before.width !== after.width || before.height !== after.height) {
        throw new Error("before and after previews differ in size on " + look.name);
      }
      canvas.width = after.width;
      canvas.height = after.height;
      const ctx = canvas.getContext("2d", { willReadFrequently: true });
      const out = ctx.createImageData(after.width, after.height);
      blend(before, after, st.s, out, st.split ? Math.round(st.pos * after.width) : 0);
      ctx.putImageData(out, 0, 0);
      canvas.hidden = false; img.hidden = true;
      divider.hidden = !st.split;
      divider.style.left = (st.pos * 100) + "%";
    });
    card.lgRendering = Promise.all(jobs);
    card.lgRendering.catch(e => console.error(e));
    return card.lgRendering;
  }

  for (const card of cards) {
    for (const sel of [".strength", ".split", ".split-pos"]) {
      card.querySelector(sel).addEventListener("input", () => render(card));
    }
    card.querySelector(".split").addEventListener("change", () => render(card));
    const copy = card.querySelector("button.copy");
    if (copy) copy.addEventListener("click", () => copyText(copy));
  }

  function copyText(button) {
    const text = button.dataset.copy;
    const done = () => { button.textContent = "copied"; setTimeout(() => { button.textContent = "copy"; }, 1200); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
    } else {
      fallbackCopy(text, done);
    }
  }

  function fallbackCopy(text, done) {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); done(); } finally { area.remove(); }
  }

  const search = document.getElementById("search");
  const tagSelect = document.getElementById("tag");
  const sortSelect = document.getElementById("sort");
  const count = document.getElementById("count");

  function haystack(look) {
    return [look.id, look.name, look.guid || "", look.description, look.tags.join(" ")].join(" ").toLowerCase();
  }

  function filter() {
    const words = search.value.toLowerCase().split(/\s+/).filter(w => w.length > 0);
    const tag = tagSelect.value;
    let shown = 0;
    for (const card of cards) {
      const look = data.looks[Number(card.dataset.index)];
      const hay = haystack(look);
      const ok = words.every(w => hay.includes(w)) && (tag === "" || look.tags.includes(tag));
      card.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown + " of " + cards.length;
  }

  function sort() {
    const key = sortSelect.value;
    const order = cards.slice();
    const look = c => data.looks[Number(c.dataset.index)];
    if (key === "name") {
      order.sort((x, y) => look(x).name.localeCompare(look(y).name, undefined, { sensitivity: "base", numeric: true }));
    } else if (key === "date") {
      order.sort((x, y) => (look(y).created || "").localeCompare(look(x).created || "")
        || look(x).name.localeCompare(look(y).name));
    } else {
      order.sort((x, y) => Number(x.dataset.index) - Number(y.dataset.index));
    }
    for (const card of order) grid.appendChild(card);
  }

  search.addEventListener("input", filter);
  tagSelect.addEventListener("change", filter);
  sortSelect.addEventListener("change", sort);
  sort();
  filter();

  function visibleCount() { return cards.filter(c => !c.hidden).length; }

  function setInput(el, value, type) {
    if (el.type === "checkbox") el.checked = value; else el.value = value;
    el.dispatchEvent(new Event(type || "input"));
  }

  // Largest difference of any colour sample in columns at or right of `fromX`.
  function maxDiff(x, y, width, fromX, toX) {
    let m = 0;
    for (let i = 0; i < x.length; i++) {
      const col = (i >> 2) % width;
      if ((i & 3) === 3 || col < fromX || col >= toX) continue;
      const d = Math.abs(x[i] - y[i]);
      if (d > m) m = d;
    }
    return m;
  }

  async function selftest() {
    const images = Array.from(document.images);
    await Promise.all(images.map(img => img.complete ? null : new Promise(r => {
      img.addEventListener("load", r); img.addEventListener("error", r);
    })));
    const broken = images.filter(img => !(img.complete && img.naturalWidth > 0));
    if (broken.length) throw new Error(broken.length + " preview images did not load, first " + broken[0].getAttribute("src"));
    for (const card of cards) {
      const look = data.looks[Number(card.dataset.index)];
      const strength = card.querySelector(".strength");
      const split = card.querySelector(".split");
      const pos = card.querySelector(".split-pos");
      const canvases = Array.from(card.querySelectorAll(".view canvas"));
      const imgs = Array.from(card.querySelectorAll(".view img"));
      // Split at 0 %: every column shows the slider's result, on the same canvas a user sees.
      setInput(pos, 0);
      setInput(split, true, "change");
      for (const [value, what] of [[0, "before"], [100, "after"], [200, "extrapolation"]]) {
        setInput(strength, value);
        await card.lgRendering;
        for (let i = 0; i < canvases.length; i++) {
          const [before, after] = await Promise.all([pixels(data.photos[i].before), pixels(look.previews[i])]);
          if (imgs[i].naturalWidth !== after.width || imgs[i].naturalHeight !== after.height) {
            throw new Error(look.name + ": preview file and data differ in size");
          }
          const got = canvases[i].getContext("2d").getImageData(0, 0, after.width, after.height).data;
          let want;
          if (value === 0) want = before.data;
          else if (value === 100) want = after.data;
          else {
            want = new Uint8ClampedArray(after.data.length);
            for (let k = 0; k < want.length; k++) want[k] = 2 * after.data[k] - before.data[k];
          }
          const d = maxDiff(got, want, after.width, 0, after.width);
          if (d > (value === 0 ? 0 : 1)) {
            throw new Error(look.name + " on " + data.photos[i].name + ": strength " + value + " is off the " + what + " by " + d + " codes");
          }
        }
      }
      // Split at 50 %: the left half is the before pixels whatever the strength.
      setInput(pos, 50);
      await card.lgRendering;
      for (let i = 0; i < canvases.length; i++) {
        const before = await pixels(data.photos[i].before);
        const got = canvases[i].getContext("2d").getImageData(0, 0, before.width, before.height).data;
        const half = Math.round(0.5 * before.width);
        if (maxDiff(got, before.data, before.width, 0, half) > 0) {
          throw new Error(look.name + ": the split view's left half is not the original");
        }
      }
      setInput(split, false, "change");
      setInput(strength, 100);
      await card.lgRendering;
    }
    if (cards.length > 0) {
      const first = data.looks[0];
      const query = first.guid || first.id;
      const matching = data.looks.filter(l => haystack(l).includes(query.toLowerCase())).length;
      setInput(search, query);
      if (visibleCount() !== matching || cards[0].hidden) {
        throw new Error("searching " + query + " shows " + visibleCount() + " cards, not " + matching);
      }
      setInput(search, "no look is called this \u2603");
      if (visibleCount() !== 0) throw new Error("a search that matches nothing shows " + visibleCount() + " cards");
      setInput(search, "");
      if (visibleCount() !== cards.length) throw new Error("an empty search hides cards");
      if (tagSelect.options.length > 1) {
        const tag = tagSelect.options[1].value;
        setInput(tagSelect, tag, "change");
        const want = data.looks.filter(l => l.tags.includes(tag)).length;
        if (visibleCount() !== want) throw new Error("tag " + tag + " shows " + visibleCount() + " cards, not " + want);
        setInput(tagSelect, "", "change");
      }
    }
    document.title = "selftest: pass";
  }

  if (/(^|[?&])selftest(=|&|$)/.test(location.search)) {
    document.title = "selftest: running";
    const start = () => selftest().catch(e => { document.title = "selftest: fail: " + (e && e.message || e); });
    if (document.readyState === "complete") start(); else window.addEventListener("load", start);
  }
})();
