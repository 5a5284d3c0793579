"""The examination propensity: certain at the top, less likely the deeper a result stands; the logs' estimate once
a learning round has made one."""
import numpy as np

from ml.ranking.click_model import MAX_RANK, Propensities, prior
from searchapp.search import propensity
from searchapp.search.propensity import current_propensities, remember_propensities


def test_until_the_logs_say_otherwise_the_first_result_is_always_looked_at_and_deeper_ones_less_often():
    propensities = [current_propensities().at(rank) for rank in range(1, MAX_RANK + 1)]
    assert propensities[0] == 1.0 and not current_propensities().estimated
    assert all(0 < deeper < higher for higher, deeper in zip(propensities, propensities[1:]))
    assert current_propensities().at(MAX_RANK + 40) == propensities[-1]  # deeper ranks share the last


def test_an_estimate_reaches_every_process_through_the_cache(monkeypatch):
    flatter = Propensities(prior(eta=0.5), True, 100, 1000)
    remember_propensities(flatter)
    monkeypatch.setattr(propensity, "_read", None)  # another process, which has not read it yet
    assert current_propensities().estimated
    assert np.isclose(current_propensities().at(4), 0.5)
    remember_propensities(Propensities(prior(), False, 3, 10))  # the prior of too few logs replaces nothing
    monkeypatch.setattr(propensity, "_read", None)
    assert np.isclose(current_propensities().at(4), 0.5)
