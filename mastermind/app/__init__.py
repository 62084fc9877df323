"""What people use: reports, the published tables, interactive play and the command line.
Builds on :mod:`mastermind.engines` and :mod:`mastermind.core`."""
