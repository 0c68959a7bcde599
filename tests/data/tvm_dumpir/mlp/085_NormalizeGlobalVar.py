# from tvm.script import ir as I

@I.ir_module
class Module:
    pass