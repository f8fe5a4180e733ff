"""The recognisers: PII entities in text with typed character offsets.

Entity types follow the public synthetic PII benchmark (PERSON, STREET_ADDRESS, GPE, ORGANIZATION, CREDIT_CARD,
DATE_TIME, TITLE, PHONE_NUMBER, AGE, NRP, EMAIL_ADDRESS, ZIP_CODE, DOMAIN_NAME, IBAN_CODE, US_SSN, IP_ADDRESS,
US_DRIVER_LICENSE) plus PASSPORT and SECRET (a password or PIN after its cue).

Layout: ``base`` (``Entity``, ``Recognizer``, ``regex``, ``Family``), one module per family of pattern
recognisers (``passwords``, ``email_addresses``, ``financial``, ``network``, ``ids``, ``dates``, ``titles``,
``orgs``, ``addresses``, ``phone``, ``names``, ``places``; ``shapes`` holds what several share), ``registry``
(``RecognizerRegistry``, the default ``REGISTRY``) and ``spacy_ner`` (the spaCy pipeline's entities, run by an NER
mode). Outside this package: ``anonymize/pipeline.py`` runs them (``recognize``), ``anonymize/resolve.py``
resolves overlaps, ``anonymize/modes.py`` holds the NER modes and ``anonymize/ner.py`` loads spaCy.

This package's top level keeps the names callers imported from the single module it replaces.
"""

from pp_graph.anonymize.modes import BUILT_IN_MODES as BUILT_IN_MODES
from pp_graph.anonymize.modes import CRF_FILL as CRF_FILL
from pp_graph.anonymize.modes import CRF_OWN as CRF_OWN
from pp_graph.anonymize.modes import DEFAULT_MODE as DEFAULT_MODE
from pp_graph.anonymize.modes import DIGEST as DIGEST
from pp_graph.anonymize.modes import MODE_NAME as MODE_NAME
from pp_graph.anonymize.modes import MODES as MODES
from pp_graph.anonymize.modes import SOFT_TYPES as SOFT_TYPES
from pp_graph.anonymize.modes import NerMode as NerMode
from pp_graph.anonymize.modes import crf_digest as crf_digest
from pp_graph.anonymize.modes import detector_digest as detector_digest
from pp_graph.anonymize.modes import hybrid as hybrid
from pp_graph.anonymize.modes import mode_digest as mode_digest
from pp_graph.anonymize.modes import mode_name as mode_name
from pp_graph.anonymize.modes import ner_modes as ner_modes
from pp_graph.anonymize.modes import register_mode as register_mode
from pp_graph.anonymize.ner import NER_PACKAGE as NER_PACKAGE
from pp_graph.anonymize.ner import NERUnavailable as NERUnavailable
from pp_graph.anonymize.pipeline import recognize as recognize
from pp_graph.anonymize.pipeline import rule_entities as rule_entities
from pp_graph.anonymize.pipeline import warm_up as warm_up
from pp_graph.anonymize.recognizers.base import TYPES as TYPES
from pp_graph.anonymize.recognizers.base import Detected as Detected
from pp_graph.anonymize.recognizers.base import Entity as Entity
from pp_graph.anonymize.recognizers.base import Finder as Finder
from pp_graph.anonymize.recognizers.base import Recognizer as Recognizer
from pp_graph.anonymize.recognizers.base import regex as regex
from pp_graph.anonymize.recognizers.registry import REGISTRY as REGISTRY
from pp_graph.anonymize.recognizers.registry import RecognizerRegistry as RecognizerRegistry
from pp_graph.anonymize.recognizers.registry import recognizer as recognizer
from pp_graph.anonymize.recognizers.spacy_ner import kept_spacy as kept_spacy
from pp_graph.anonymize.recognizers.spacy_ner import ner_entities as ner_entities
from pp_graph.anonymize.resolve import Occupied as Occupied
from pp_graph.anonymize.resolve import clip as clip
from pp_graph.anonymize.resolve import resolve as resolve
