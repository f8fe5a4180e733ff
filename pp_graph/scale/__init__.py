"""Conversion beyond one machine: the same per-policy tasks as the process pool, on a Dask cluster."""
