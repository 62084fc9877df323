"""What people use: the strategy registry, reports, file formats, interactive play and the
command line. Builds on :mod:`mastermind.engines` and :mod:`mastermind.core`."""
