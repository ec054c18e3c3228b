  kit_rwp_in                                            229254               0
  kit_rwp_out                                           229254               0
