"""Helpers for tests (mlcore's and Django's): tiny random BERT checkpoints and toy data.

Nothing here downloads anything; a tiny model is built from a ~100 word
vocabulary in well under a second and saved with ``save_pretrained`` so the
real loading code paths are exercised.
"""

from __future__ import annotations

import random
from pathlib import Path

from mlcore.configs import MCExample

__all__ = ["MARKER_WORD", "TINY_VOCAB_WORDS", "build_tiny_bert", "build_tiny_bert_qa", "make_toy_examples"]

_SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
#: The word that marks the correct answer in :func:`make_toy_examples`.
MARKER_WORD = "zebra"
_SUBJECTS = ["the cat", "my brother", "a dog", "the teacher", "my friend", "the man", "the woman", "a bird"]
_VERBS = ["ate", "saw", "liked", "wanted", "found", "bought", "lost", "made", "took", "gave"]
_OBJECTS = ["an apple", "the ball", "a book", "the car", "some bread", "a hat", "the house", "a cake"]
_FILLERS = ["very", "quickly", "today", "then", "again", "slowly", "happily", "not", "is", "was", "he", "she",
            "it", "they", "i", "am", "always", "hungry", "before", "go", "to", "bed", "good", "at", "math",
            "big", "small", "red", "blue", "green", "on", "in", "with", "and", "of", "for"]
#: Every word the toy data and the package's tests use (plus punctuation).
TINY_VOCAB_WORDS: tuple[str, ...] = tuple(
    dict.fromkeys(
        [w for phrase in _SUBJECTS + _VERBS + _OBJECTS for w in phrase.split()]
        + _FILLERS
        + [MARKER_WORD, ".", ",", "!", "?", "'", "-"]
    )
)


def build_tiny_bert(directory: str | Path, *, seed: int = 0, with_head: bool = True) -> Path:
    """Save a randomly initialised 2-layer BERT plus tokenizer to ``directory``.

    Parameters
    ----------
    directory : str or Path
        Created if missing.
    seed : int
        Torch seed for the random weights (same seed, same checkpoint).
    with_head : bool
        Save ``BertForMultipleChoice`` (True) or a bare ``BertModel`` like
        the packaged MiniLM (False). Both load with ``AutoModel`` and
        ``AutoModelForMultipleChoice``.

    Returns
    -------
    Path
        The checkpoint directory.
    """
    import torch
    from transformers import (  # type: ignore[attr-defined]  # BertTokenizerFast: a lazy alias
        BertConfig,
        BertForMultipleChoice,
        BertModel,
        BertTokenizerFast,
    )

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    vocab = directory / "vocab.txt"
    vocab.write_text("\n".join(_SPECIAL_TOKENS + list(TINY_VOCAB_WORDS)) + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast(vocab_file=str(vocab), do_lower_case=True)
    config = BertConfig(
        vocab_size=len(_SPECIAL_TOKENS) + len(TINY_VOCAB_WORDS),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=128,
    )
    torch.manual_seed(seed)
    model = BertForMultipleChoice(config) if with_head else BertModel(config)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def build_tiny_bert_qa(directory: str | Path, *, seed: int = 0, extra_words: tuple[str, ...] = ()) -> Path:
    """Save a randomly initialised 2-layer ``BertForQuestionAnswering`` plus fast tokenizer.

    ``extra_words`` join the tiny vocabulary (e.g. a few Persian words for RTL tests).
    """
    import torch
    from transformers import (  # type: ignore[attr-defined]  # BertTokenizerFast: a lazy alias
        BertConfig,
        BertForQuestionAnswering,
        BertTokenizerFast,
    )

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    words = list(dict.fromkeys([*TINY_VOCAB_WORDS, *extra_words]))
    vocab = directory / "vocab.txt"
    vocab.write_text("\n".join(_SPECIAL_TOKENS + words) + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast(vocab_file=str(vocab), do_lower_case=True)
    config = BertConfig(
        vocab_size=len(_SPECIAL_TOKENS) + len(words), hidden_size=32, num_hidden_layers=2,
        num_attention_heads=2, intermediate_size=37, max_position_embeddings=512,
    )
    torch.manual_seed(seed)
    BertForQuestionAnswering(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def make_toy_examples(n: int, *, seed: int = 0) -> list[MCExample]:
    """A learnable toy task: the correct answer is the only one containing :data:`MARKER_WORD`.

    The marker's position in the answer and the label are random, so a model
    must look at the token itself; prompts are random noise sentences.
    """
    rng = random.Random(seed)
    examples = []
    for _ in range(n):
        prompt = f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} . it"
        choices = [f"{rng.choice(_VERBS)} {rng.choice(_OBJECTS)} {rng.choice(_FILLERS)}" for _ in range(4)]
        label = rng.randrange(4)
        words = choices[label].split()
        words.insert(rng.randrange(len(words) + 1), MARKER_WORD)
        choices[label] = " ".join(words)
        examples.append(MCExample(prompt=prompt, choices=tuple(choices), label=label))
    return examples
