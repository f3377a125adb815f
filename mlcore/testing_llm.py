"""Test helpers for the language-model kinds: tiny random causal LMs and a local chat server.

:func:`build_tiny_causal_lm` writes a random 2-layer GPT-2 or Llama with a byte-level BPE
tokenizer trained here (nothing is downloaded). :class:`TinyChatServer` serves such a model over
HTTP on 127.0.0.1, following the OpenAI chat-completions schema; every response is built and
validated with the ``openai`` package's own types (``ChatCompletion.model_validate``), and a
queue of fault modes makes it misbehave on demand (malformed JSON, no choices, a letter that
is not A-D, 429, 500, a slow answer, a hung or dropped connection).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

from mlcore.testing import TINY_VOCAB_WORDS

__all__ = ["FAULTS", "LETTERS", "TinyChatServer", "build_tiny_causal_lm", "chat_prompt_text"]

LETTERS: tuple[str, ...] = ("A", "B", "C", "D")
#: What :meth:`TinyChatServer.queue_faults` accepts; ``ok`` is a normal answer.
FAULTS: tuple[str, ...] = ("ok", "no_logprobs", "malformed", "no_choices", "bad_letter", "rate_limit",
                           "server_error", "slow", "hung", "drop")
_CORPUS_EXTRA = ["Answer:", "A. B. C. D.", "Which completion is best?", "user: assistant:", "question",
                 "The glass fell off the table and shattered on the floor.", "naïve café déjà vu"]


def build_tiny_causal_lm(directory: str | Path, *, arch: Literal["gpt2", "llama"] = "gpt2", seed: int = 0) -> Path:
    """Save a random 2-layer causal LM and a byte-level BPE tokenizer (about 400 tokens) to ``directory``.

    The tokenizer is GPT-2's kind (spaces belong to the following word), so a prompt and a
    completion meet at a token boundary the way they do for real checkpoints. The same seed
    gives the same checkpoint.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    specials = ["<|endoftext|>"] if arch == "gpt2" else ["<s>", "</s>"]
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=specials, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    words = list(TINY_VOCAB_WORDS)
    corpus = [" ".join(words[i : i + 8]) for i in range(0, len(words), 4)] + _CORPUS_EXTRA
    tokenizer.train_from_iterator(corpus * 3, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token=specials[0], eos_token=specials[-1])
    vocab = fast.vocab_size
    torch.manual_seed(seed)
    model: Any
    if arch == "gpt2":
        model = GPT2LMHeadModel(GPT2Config(vocab_size=vocab, n_positions=128, n_embd=32, n_layer=2, n_head=2,
                                           bos_token_id=fast.bos_token_id, eos_token_id=fast.eos_token_id))
    else:
        model = LlamaForCausalLM(LlamaConfig(vocab_size=vocab, hidden_size=32, intermediate_size=64,
                                             num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                                             max_position_embeddings=128, bos_token_id=fast.bos_token_id,
                                             eos_token_id=fast.eos_token_id))
    model.save_pretrained(directory)
    fast.save_pretrained(directory)
    return directory


def chat_prompt_text(messages: list[dict[str, Any]]) -> str:
    """The text the test server's model reads for a chat: ``role: content`` lines, then ``assistant:``."""
    return "".join(f"{m.get('role', 'user')}: {m.get('content', '')}\n" for m in messages) + "assistant:"


class TinyChatServer:
    """An OpenAI-compatible ``POST /v1/chat/completions`` over a tiny transformers causal LM.

    The answer is the most likely of the tokens ``A``-``D`` after :func:`chat_prompt_text`
    (a server-side constraint, like a llama.cpp grammar); the first token's ``logprobs`` report
    the log-probabilities of those four renormalised among themselves, so they are all present
    in ``top_logprobs``. Use as a context manager; ``base_url`` ends in ``/v1``.

    Attributes
    ----------
    requests : list of dict
        Every request body received, in order.
    authorizations : list of str or None
        The ``Authorization`` header of each request.
    peak_in_flight : int
        Most requests handled at the same time.
    """

    def __init__(self, model_dir: str | Path, *, model_name: str = "tiny-chat", slow_s: float = 2.0) -> None:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.model_name = model_name
        self.slow_s = slow_s
        self.tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
        self.model = AutoModelForCausalLM.from_pretrained(str(model_dir), local_files_only=True).eval()
        self.letter_ids = [self.tokenizer.convert_tokens_to_ids(letter) for letter in LETTERS]
        self.requests: list[dict[str, Any]] = []
        self.authorizations: list[str | None] = []
        self.peak_in_flight = 0
        self._in_flight = 0
        self._faults: deque[str] = deque()
        self._lock = threading.Lock()
        self._model_lock = threading.Lock()
        self._release = threading.Event()
        self._httpd = _QuietServer(("127.0.0.1", 0), _make_handler(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="TinyChatServer", daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> TinyChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release.set()  # let hung handlers return
        self._httpd.shutdown()
        self._httpd.server_close()

    def queue_faults(self, *faults: str) -> None:
        """Serve these fault modes to the next requests, one each, then answer normally again."""
        unknown = [f for f in faults if f not in FAULTS]
        if unknown:
            raise ValueError(f"unknown faults {unknown}; expected some of {FAULTS}")
        with self._lock:
            self._faults.extend(faults)

    def letter_logprobs(self, prompt_text: str) -> list[float]:
        """Log-probabilities of ``A``-``D`` after ``prompt_text``, renormalised over the four."""
        import torch

        ids = self.tokenizer(prompt_text, add_special_tokens=False)["input_ids"]
        with self._model_lock, torch.inference_mode():
            logits = self.model(input_ids=torch.tensor([ids])).logits[0, -1]  # (vocab,)
        return [float(v) for v in torch.log_softmax(logits[self.letter_ids].double(), dim=-1)]

    def completion(self, body: dict[str, Any], fault: str) -> dict[str, Any]:
        """The response to ``body`` (a normal answer, or one with ``fault``'s defect), validated by ``openai``."""
        from openai.types.chat import ChatCompletion

        prompt_text = chat_prompt_text(list(body.get("messages", [])))
        logprobs = self.letter_logprobs(prompt_text)
        best = max(range(len(LETTERS)), key=logprobs.__getitem__)
        token = "E" if fault == "bad_letter" else LETTERS[best]
        tops = sorted(zip(LETTERS, logprobs), key=lambda item: -item[1])[: int(body.get("top_logprobs") or 0)]
        entry = {"token": token, "logprob": logprobs[best], "bytes": list(token.encode()),
                 "top_logprobs": [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in tops]}
        want_logprobs = bool(body.get("logprobs")) and fault != "no_logprobs"
        n_prompt = len(self.tokenizer(prompt_text, add_special_tokens=False)["input_ids"])
        data = {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
            "model": self.model_name,
            "choices": [] if fault == "no_choices" else [{
                "index": 0, "finish_reason": "length", "message": {"role": "assistant", "content": token},
                "logprobs": {"content": [entry], "refusal": None} if want_logprobs else None}],
            "usage": {"prompt_tokens": n_prompt, "completion_tokens": 1, "total_tokens": n_prompt + 1},
        }
        return ChatCompletion.model_validate(data).model_dump(mode="json")

    def _next_fault(self, body: dict[str, Any], authorization: str | None) -> str:
        with self._lock:
            self.requests.append(body)
            self.authorizations.append(authorization)
            self._in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
            return self._faults.popleft() if self._faults else "ok"

    def _done(self) -> None:
        with self._lock:
            self._in_flight -= 1


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out has gone: writing the late answer fails, as intended.
        return


def _make_handler(server: TinyChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet in tests
            return

        def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            fault = server._next_fault(body, self.headers.get("Authorization"))
            try:
                self._answer(body, fault)
            finally:
                server._done()

        def _answer(self, body: dict[str, Any], fault: str) -> None:
            if fault == "hung":  # read the request, then never answer
                server._release.wait()
                return
            if fault == "drop":  # close the connection without a response
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if fault == "slow":
                time.sleep(server.slow_s)
            if fault == "rate_limit":
                self._send(429, b'{"error": {"message": "rate limited", "type": "rate_limit"}}', {"Retry-After": "0"})
            elif fault == "server_error":
                self._send(500, b'{"error": {"message": "internal error", "type": "server_error"}}')
            elif fault == "malformed":
                self._send(200, b'{"id": "chatcmpl-x", "choices": [')
            else:
                self._send(200, json.dumps(server.completion(body, fault)).encode())

    return Handler
