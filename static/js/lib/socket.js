/*
 * The one websocket client of the app's pages: JSON messages, reconnection with exponential
 * backoff (capped, optionally jittered so a restarted server is not hit by everyone at once) and the
 * close codes of the server's socket base (core/consumers: 4403 = "you may not use this socket",
 * never retried).
 *
 *   const socket = connectSocket(path, {onOpen, onMessage, onForbidden, onRetry, onClose, shouldReconnect, jitter});
 *   socket.send({type: "draft", ...}) -> true when sent; socket.open -> bool;
 *   socket.close() stops it for good; socket.connect() reopens a closed one
 */
export const CLOSE_FORBIDDEN = 4403;
export const MAX_BACKOFF_MS = 30000;

/** ws(s)://host/path on the page's own host. */
export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  return scheme + window.location.host + path;
}

/** Milliseconds to wait before retry number `retries` (0-based). */
export function backoffDelay(retries, { jitter = false } = {}) {
  const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** retries);
  return jitter ? delay * (0.75 + Math.random() / 2) : delay;
}

export function connectSocket(path, handlers = {}) {
  const {
    onOpen = () => {},
    onMessage = () => {},
    onClose = () => {},
    onForbidden = () => {},
    onRetry = () => {},
    shouldReconnect = () => true,
    jitter = false,
  } = handlers;
  let socket = null;
  let retries = 0;
  let forbidden = false;
  let stopped = false; // close() was called: no reconnecting

  function open() {
    if (socket !== null || forbidden) {
      return;
    }
    socket = new WebSocket(socketUrl(path));
    socket.addEventListener("open", () => {
      retries = 0;
      onOpen();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not ours
      }
      onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      socket = null;
      onClose(event);
      if (event.code === CLOSE_FORBIDDEN) {
        forbidden = true;
        onForbidden(event);
        return;
      }
      if (stopped || !shouldReconnect()) {
        return;
      }
      const delay = backoffDelay(retries, { jitter });
      retries += 1;
      onRetry(delay, event);
      window.setTimeout(() => {
        if (!stopped && shouldReconnect()) {
          open();
        }
      }, delay);
    });
  }

  open();
  return {
    get open() {
      return socket !== null && socket.readyState === WebSocket.OPEN;
    },
    send(message) {
      if (socket === null || socket.readyState !== WebSocket.OPEN) {
        return false;
      }
      socket.send(JSON.stringify(message));
      return true;
    },
    connect() {
      stopped = false;
      open();
    },
    close() {
      stopped = true;
      if (socket !== null) {
        socket.close();
      }
    },
  };
}
