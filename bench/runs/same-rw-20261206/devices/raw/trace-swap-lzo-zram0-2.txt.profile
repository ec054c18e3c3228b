  kit_rwp_in                                            221453               0
  kit_rwp_out                                           221453               0
