  kit_rwp_in                                            221818               0
  kit_rwp_out                                           221818               0
