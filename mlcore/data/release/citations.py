"""BibTeX of the methods a release was collected and analysed with (see /work/shared/papers)."""
from __future__ import annotations

CODAH = """@inproceedings{chen-etal-2019-codah,
  title = {{CODAH}: An Adversarially-Authored Question Answering Dataset for Common Sense},
  author = {Chen, Michael and D'Arcy, Mike and Liu, Alisa and Fernandez, Jared and Downey, Doug},
  booktitle = {Proceedings of the 3rd Workshop on Evaluating Vector Space Representations for NLP},
  year = {2019}
}"""
SQUAD2 = """@inproceedings{rajpurkar-etal-2018-know,
  title = {Know What You Don't Know: Unanswerable Questions for {SQuAD}},
  author = {Rajpurkar, Pranav and Jia, Robin and Liang, Percy},
  booktitle = {Proceedings of ACL},
  year = {2018}
}"""
PQUAD = """@article{darvishi-etal-2023-pquad,
  title = {{PQuAD}: A Persian Question Answering Dataset},
  author = {Darvishi, Kasra and Shahbodagh, Newsha and Abbasiantaeb, Zahra and Momtazi, Saeedeh},
  journal = {Computer Speech \\& Language},
  year = {2023}
}"""
DYNABENCH = """@inproceedings{kiela-etal-2021-dynabench,
  title = {Dynabench: Rethinking Benchmarking in {NLP}},
  author = {Kiela, Douwe and others},
  booktitle = {Proceedings of NAACL},
  year = {2021}
}"""
SERRANO = """@inproceedings{serrano-etal-2023-stubborn,
  title = {Stubborn Lexical Bias in Data and Models},
  author = {Serrano, Sofia and Dodge, Jesse and Smith, Noah A.},
  booktitle = {Findings of ACL},
  year = {2023}
}"""
MAO = """@inproceedings{mao-etal-2021-eliciting,
  title = {Eliciting Bias in Question Answering Models through Ambiguity},
  author = {Mao, Andrew and Raman, Naveen and Shu, Matthew and Li, Eric and Yang, Franklin and Boyd-Graber, Jordan},
  booktitle = {Proceedings of the 3rd Workshop on Machine Reading for Question Answering},
  year = {2021}
}"""


def citations_for(kind: str) -> tuple[str, ...]:
    """CODAH for multiple-choice releases, SQuAD 2.0/PQuAD and the ambiguity probes for span ones."""
    if kind == "multiple_choice":
        return (CODAH, DYNABENCH, SERRANO)
    return (SQUAD2, PQUAD, DYNABENCH, SERRANO, MAO)
