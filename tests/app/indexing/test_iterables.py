import itertools

from searchapp.indexing.iterables import chunks


def test_chunks_are_consecutive_lists_of_the_size_the_last_one_shorter():
    assert list(chunks(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(chunks([], 3)) == []


def test_chunks_consume_their_items_lazily():
    counted = itertools.count()
    first = next(chunks(counted, 4))
    assert first == [0, 1, 2, 3] and next(counted) == 4  # an endless iterable: only one chunk was read
