"""What runs while the site serves people: each search served, interleaved with a candidate ranker on a share of
them (`serving`), and the learning loop that retrains and decides every few minutes (`loop`, run by Celery beat
through `tasks`), whose record the staff Rankers page reads (`ranker_history`). Training itself, offline and on
demand, is `searchapp.learning`'s."""
