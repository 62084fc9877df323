"""Running engine work in a child process under a time limit (:mod:`.timed`), and a run of
rows, each with a time limit of its own, within one cancel token (:mod:`.rows`)."""
