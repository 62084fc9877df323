"""Lower bounds and OR-Tools models: proven limits on what any strategy can achieve."""
