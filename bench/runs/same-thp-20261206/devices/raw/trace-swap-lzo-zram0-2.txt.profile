  kit_rwp_in                                            180946               0
  kit_rwp_out                                           180946               0
