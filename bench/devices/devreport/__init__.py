"""bench/devices/report.py's parts: one module per section of the report
(fio, swap, memory), the readers they share and the plots."""
