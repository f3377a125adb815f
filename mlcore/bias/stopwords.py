"""The stop list used to select lexical-artifact features (SPEC-bias §1.5, Appendix A).

The 179-word NLTK English list is embedded here instead of being downloaded, so
the selected features cannot change when a newer NLTK data release adds words.
:data:`STOP_WORDS` adds the punctuation-stripped form of every entry (``don't``
-> ``dont``), because :func:`mlcore.bias.lexical.lexical_tokens` deletes punctuation
before tokens are compared with the list: 179 + 25 new strings = 204.
"""

from __future__ import annotations

import unicodedata

__all__ = ["NLTK_ENGLISH_STOPWORDS", "STOP_WORDS"]

#: NLTK's English stop words, in the library's order (179 entries).
NLTK_ENGLISH_STOPWORDS: tuple[str, ...] = ("i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "you're", "you've", "you'll", "you'd", "your", "yours", "yourself", "yourselves", "he", "him", "his", "himself", "she", "she's", "her", "hers", "herself", "it", "it's", "its", "itself", "they", "them", "their", "theirs", "themselves", "what", "which", "who", "whom", "this", "that", "that'll", "these", "those", "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had", "having", "do", "does", "did", "doing", "a", "an", "the", "and", "but", "if", "or", "because", "as", "until", "while", "of", "at", "by", "for", "with", "about", "against", "between", "into", "through", "during", "before", "after", "above", "below", "to", "from", "up", "down", "in", "out", "on", "off", "over", "under", "again", "further", "then", "once", "here", "there", "when", "where", "why", "how", "all", "any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same", "so", "than", "too", "very", "s", "t", "can", "will", "just", "don", "don't", "should", "should've", "now", "d", "ll", "m", "o", "re", "ve", "y", "ain", "aren", "aren't", "couldn", "couldn't", "didn", "didn't", "doesn", "doesn't", "hadn", "hadn't", "hasn", "hasn't", "haven", "haven't", "isn", "isn't", "ma", "mightn", "mightn't", "mustn", "mustn't", "needn", "needn't", "shan", "shan't", "shouldn", "shouldn't", "wasn", "wasn't", "weren", "weren't", "won", "won't", "wouldn", "wouldn't")


def _strip_punctuation(word: str) -> str:
    # Same rule as lexical_tokens step 3 (delete Unicode category P*); duplicated here
    # because mlcore.bias.lexical imports this module.
    return "".join(ch for ch in word if not unicodedata.category(ch).startswith("P"))


#: NLTK list plus the stripped forms (204 distinct strings); compare tokens after §1.1.
STOP_WORDS: frozenset[str] = frozenset(NLTK_ENGLISH_STOPWORDS) | frozenset(
    map(_strip_punctuation, NLTK_ENGLISH_STOPWORDS)
)
