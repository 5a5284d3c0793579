"""The examination propensity: certain at the top, less likely the deeper a result stands."""
from searchapp.search.propensity import examination_propensity


def test_the_first_result_is_always_looked_at_and_deeper_ones_less_often():
    propensities = [examination_propensity(rank) for rank in range(1, 101)]
    assert propensities[0] == 1.0
    assert all(0 < deeper < higher for higher, deeper in zip(propensities, propensities[1:]))
