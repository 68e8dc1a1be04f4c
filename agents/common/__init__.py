"""What every room shares: the configs' schema and the shipped configs, the run directory's layout, and the policy
networks (features extractors) a config names."""
