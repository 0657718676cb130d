// A tiling several operators share (their op_host includes this header).
class CommonTiling {
public:
  void WriteBack(Ctx *c);
};
