// A deliberately small document for running the example app in a vm page: the
// elements come from the real index.html (so a missing id fails the test), and
// only the DOM calls the example uses exist.

class FakeElement {
  constructor(tagName, attributes = {}) {
    this.tagName = tagName.toUpperCase();
    this.attributes = { ...attributes };
    this.id = attributes.id || '';
    this.className = attributes.class || '';
    this.value = attributes.value || '';
    this.disabled = false;
    this.title = '';
    this.dataset = {};
    this.children = [];
    this.parentNode = null;
    this.listeners = new Map();
    this.text = '';
  }

  get firstChild() {
    return this.children[0] || null;
  }

  get lastChild() {
    return this.children[this.children.length - 1] || null;
  }

  get textContent() {
    return this.text + this.children.map((child) => child.textContent).join(' ');
  }

  set textContent(value) {
    this.children = [];
    this.text = String(value);
  }

  getAttribute(name) {
    return Object.prototype.hasOwnProperty.call(this.attributes, name) ? this.attributes[name] : null;
  }

  appendChild(child) {
    return this.insertBefore(child, null);
  }

  insertBefore(child, reference) {
    if (child.parentNode) child.parentNode.removeChild(child);
    const index = reference ? this.children.indexOf(reference) : -1;
    if (index < 0) this.children.push(child);
    else this.children.splice(index, 0, child);
    child.parentNode = this;
    return child;
  }

  removeChild(child) {
    const index = this.children.indexOf(child);
    if (index < 0) throw new Error('removeChild: not a child');
    this.children.splice(index, 1);
    child.parentNode = null;
    return child;
  }

  addEventListener(type, listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(listener);
  }

  dispatch(type) {
    const event = { type, target: this, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    for (const listener of this.listeners.get(type) || []) listener.call(this, event);
    return event;
  }

  click() {
    if (!this.disabled) this.dispatch('click');
  }
}

/** Builds a document holding one element per opening tag of `html`. */
export function createDocument(html) {
  const elements = [];
  for (const match of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
    const attributes = {};
    for (const attr of match[2].matchAll(/([a-zA-Z-:]+)(?:="([^"]*)")?/g)) {
      attributes[attr[1]] = attr[2] === undefined ? '' : attr[2];
    }
    elements.push(new FakeElement(match[1], attributes));
  }
  const listeners = new Map();
  return {
    readyState: 'complete',
    documentElement: { dataset: {} },
    elements,
    createElement: (tag) => new FakeElement(tag),
    getElementById: (id) => elements.find((element) => element.id === id) || null,
    querySelectorAll(selector) {
      let match;
      if ((match = /^\.([\w-]+)$/.exec(selector))) {
        return elements.filter((element) => element.className.split(/\s+/).includes(match[1]));
      }
      if ((match = /^\[([\w-]+)\]$/.exec(selector))) {
        return elements.filter((element) => element.getAttribute(match[1]) !== null);
      }
      throw new Error(`fake document: unsupported selector ${selector}`);
    },
    addEventListener(type, listener) {
      if (!listeners.has(type)) listeners.set(type, []);
      listeners.get(type).push(listener);
    }
  };
}

/** A requestAnimationFrame whose frames run when the test says so. */
export function createFrames() {
  let queue = [];
  return {
    requestAnimationFrame(callback) {
      queue.push(callback);
      return queue.length;
    },
    /** Runs one frame: the callbacks queued before it started. */
    frame() {
      const run = queue;
      queue = [];
      for (const callback of run) callback(0);
    }
  };
}
