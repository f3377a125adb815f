"""pylti1p3's launch data storage in Django's cache, with nonces used once.

pylti1p3's ``check_nonce`` only asks whether the nonce exists, so the same id_token could be posted
again while the nonce lives (24 h). Deleting it as it is checked (atomic in Redis and in locmem) makes
a replayed launch fail with "Invalid Nonce".
"""
from pylti1p3.contrib.django.launch_data_storage.cache import DjangoCacheDataStorage


class OneTimeNonceCacheStorage(DjangoCacheDataStorage):
    def check_value(self, key: str) -> bool:
        # SessionService calls check_value for nonces only.
        return bool(self._get_cache().delete(self._prepare_key(key)))
