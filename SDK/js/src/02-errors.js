  // ---------------------------------------------------------------- errors

  /**
   * An error from a PWAKit call: a stable `code`, a human `message`, optional
   * `details` (for example `{path: "payload.style"}`) and the call it belongs to.
   */
  class PWAKitError extends Error {
    constructor(message, options) {
      var opts = options && typeof options === 'object' ? options : {};
      super(typeof message === 'string' ? message : String(message));
      this.name = 'PWAKitError';
      this.code = typeof opts.code === 'string' && opts.code !== '' ? opts.code : 'module_error';
      this.details = opts.details;
      this.module = opts.module;
      this.action = opts.action;
      this.id = opts.id;
      if (opts.cause !== undefined) {
        this.cause = opts.cause;
      }
    }

    toJSON() {
      var out = { name: this.name, code: this.code, message: this.message };
      if (this.details !== undefined) out.details = this.details;
      if (this.module !== undefined) out.module = this.module;
      if (this.action !== undefined) out.action = this.action;
      if (this.id !== undefined) out.id = this.id;
      return out;
    }
  }

