import LookCore
import ImageIO
