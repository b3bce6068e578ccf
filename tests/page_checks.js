// The page checks of tests/page_checks.py, evaluated in the page. Each is one
// function expression taking the minimum size and returning what is too small.

// SMALL_TARGETS
(minimum) => {
  const found = [];
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])';
  for (const element of document.querySelectorAll(selector)) {
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (element.closest('[hidden], [inert], .cm-editor')) continue;
    if (element.tagName === 'A' && style.display === 'inline') {
      const block = element.parentElement;
      const own = block ? block.textContent.replace(element.textContent, '').trim() : '';
      if (own.length > 0) continue;  // a link in a sentence
    }
    // A checkbox or radio counts with its label, which takes the tap too.
    let target = box;
    if (element.type === 'checkbox' || element.type === 'radio') {
      const label = element.closest('label') || (element.id && document.querySelector('label[for="' + element.id + '"]'));
      if (label) target = label.getBoundingClientRect();
    }
    if (target.width < minimum - 0.5 || target.height < minimum - 0.5) {
      const name = (element.getAttribute('aria-label') || element.textContent || element.name || element.id || '').trim().slice(0, 40);
      found.push(element.tagName.toLowerCase() + ' "' + name + '" is ' + Math.round(target.width) + ' x ' + Math.round(target.height) + ' px');
    }
  }
  return found;
}

// SMALL_TEXT
(minimum) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const element = node.parentElement;
    if (!element || seen.has(element)) continue;
    seen.add(element);
    if (element.closest('sup, sub, [hidden], script, style, noscript, .cm-editor, svg')) continue;
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const size = parseFloat(style.fontSize);
    if (size < minimum - 0.05) {
      found.push(element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).split(' ')[0] : '') + ' "' + node.textContent.trim().slice(0, 40) + '" is ' + size + ' px');
    }
  }
  return found;
}
