from django.apps import AppConfig


class SearchAppConfig(AppConfig):
    name = "searchapp"
    verbose_name = "MathSearch"

    def ready(self) -> None:
        from django.conf import settings
        from threadpoolctl import threadpool_limits

        # numpy's BLAS computes on as many threads as torch (MATHSEARCH_TORCH_THREADS, 1 by default). With its own
        # default of one thread per core, its threads spin against the other processes of the shared 2-core machine:
        # at 100k formulas under load 4, search p50 fell from 138-188 ms to 74-80 ms, and assigning 10k node vectors
        # to centroids from ~530 to ~35 ms (var: `bench_search`, `Codebook.assign`).
        threadpool_limits(settings.MATHSEARCH_TORCH_THREADS, user_api="blas")
        from searchapp import (
            checks,  # noqa: F401  (registers the start-up checks)
            rankers,  # noqa: F401  (deletes the weights of deleted rankers)
        )
        from searchapp.indexing import uploads  # noqa: F401  (deletes the uploads of deleted jobs)
