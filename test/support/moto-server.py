"""moto's server as the moto pass runs it (test/with-moto.sh).

DynamoDB answers each item's writes one at a time: a conditional write is checked and applied as
one step, so of two racing conditional writes at most one succeeds. moto's server runs requests on
threads without a lock around its DynamoDB models, so two UpdateItems can both pass their condition
before either applies. The tests that race writes on purpose (two receipts at once, two workers
taking one token bucket) would see a store that DynamoDB is not: DynamoDB's actions run one at a
time here (SQS's long polls, which wait, are left alone).

Two things of moto's own HTTP front end cost the pass more than the emulated services do, and
neither changes what an API call answers: every request lists moto's package directory (a stat per
service) under one lock shared by all requests, and every request is logged to the terminal. The
list is read once here, and the request log kept to warnings.
"""
import logging
import sys
import threading

from moto import backends
from moto.dynamodb.responses import DynamoHandler

try:
    _modules = frozenset(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: _modules
except AttributeError:  # another moto version: its own listing, slower but the same answers
    pass
logging.getLogger("werkzeug").setLevel(logging.WARNING)

_one_at_a_time = threading.Lock()
_call_action = DynamoHandler.call_action


def _serialized_call_action(self, *args, **kwargs):
    with _one_at_a_time:
        return _call_action(self, *args, **kwargs)


DynamoHandler.call_action = _serialized_call_action

from moto.server import main  # noqa: E402  (after the patch: the server reads it at import)

main(sys.argv[1:])
