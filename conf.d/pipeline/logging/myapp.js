grok(_, '%{LOGLEVEL:status} %{GREEDYDATA:msg}')
