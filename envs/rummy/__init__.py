"""The rummy toolkit (``taas.envs.rummy``) shared by Continental, Marriage, Rommé and Nepali
Marriage: the exact meld solver and its compiled kernel, the opening search, the shared stock
and discard table, the rummy determinizer, series records and the rummy table view."""
