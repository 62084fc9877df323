"""The game model: rules, codes, feedback, the score table, symmetry, strategy trees and the
strategy interface, with their numba kernels, and the strategy files (:mod:`.formats`).
Imports nothing from the layers above."""
