  kit_rwp_in                                            220364               0
  kit_rwp_out                                           220364               0
